//! One helper per host operation of seed 004. Each returns the [`StepOutput`] that asks for it; `id` is the
//! call's number in this invocation: 1 for the first, then 2, 3, … with no gap (the SDK refuses anything else).

use serde_json::Value;

use crate::{HostOp, StepOutput};

/// `fs.read {path}`: the answer's result is `{"text": …}` (see [`crate::results::FsReadResult`]).
/// Needs `"workspace": "read"` or `"read-write"` in the manifest.
pub fn host_read(id: u32, path: impl Into<String>) -> StepOutput {
    StepOutput::host_call(id, HostOp::FsRead { path: path.into() })
}

/// `fs.write {path, text}`: replaces the file with `text`; the result is `{"bytes": N}`.
/// Needs `"workspace": "read-write"`; the person may refuse the write (`ok: false`).
pub fn host_write(id: u32, path: impl Into<String>, text: impl Into<String>) -> StepOutput {
    StepOutput::host_call(id, HostOp::FsWrite { path: path.into(), text: text.into() })
}

/// `fs.list {path}`: entries of one directory (`""` is the workspace root); the result is `{"entries": […]}`
/// (see [`crate::results::FsListResult`]).
pub fn host_list(id: u32, path: impl Into<String>) -> StepOutput {
    StepOutput::host_call(id, HostOp::FsList { path: path.into() })
}

/// `kv.get {key}`: the result is `{"value": …}`, without a value when the key holds none
/// (see [`crate::results::KvGetResult`]). Needs `"storage": true`.
pub fn host_kv_get(id: u32, key: impl Into<String>) -> StepOutput {
    StepOutput::host_call(id, HostOp::KvGet { key: key.into() })
}

/// `kv.put {key, value}`: stores any JSON value; the result is `{}`. Needs `"storage": true`.
/// Never store API keys here.
pub fn host_kv_put(id: u32, key: impl Into<String>, value: impl Into<Value>) -> StepOutput {
    StepOutput::host_call(id, HostOp::KvPut { key: key.into(), value: value.into() })
}

/// `kv.delete {key}`: the result is `{}`. Needs `"storage": true`.
pub fn host_kv_delete(id: u32, key: impl Into<String>) -> StepOutput {
    StepOutput::host_call(id, HostOp::KvDelete { key: key.into() })
}
