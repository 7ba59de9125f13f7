//! Result objects of the host operations (the `result` of a successful [`crate::HostResponse`]).
//!
//! These are lenient on purpose: a newer host may add fields, and a plugin keeps working.
//! Decode one with [`crate::HostResponse::parse`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `fs.read` → `{"text": "…"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsReadResult {
    pub text: String,
}

/// `fs.write` → `{"bytes": N}`: the number of UTF-8 bytes written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsWriteResult {
    pub bytes: u64,
}

/// `fs.list` → `{"entries": […]}`, sorted by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FsListResult {
    pub entries: Vec<DirEntry>,
}

/// One entry of `fs.list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirEntry {
    /// Workspace-relative path, `/`-separated (pass it to `fs.read` or `fs.list` as is).
    pub path: String,
    pub directory: bool,
    /// Size in bytes for files, 0 for directories.
    #[serde(default)]
    pub size: u64,
}

/// `kv.get` → `{"value": …}`; `None` when the key holds nothing (the field is absent or null).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KvGetResult {
    #[serde(default)]
    pub value: Option<Value>,
}
