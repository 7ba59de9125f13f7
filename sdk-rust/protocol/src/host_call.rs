use serde::de::{self, DeserializeOwned};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::limits::MAX_HOST_CALLS;

/// The request of a `host_call` frame: `{"id":1,"op":"fs.read","args":{"path":"notes.txt"}}`.
///
/// `id` is 1 for the first call of an invocation and grows by one per call, at most 128.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCall {
    pub id: u32,
    pub op: HostOp,
}

/// A host operation with its exact arguments. The wire form keeps the name in `op` and the arguments in `args`;
/// `args` must have exactly these fields, no more and no fewer.
#[derive(Debug, Clone, PartialEq)]
pub enum HostOp {
    /// `fs.read {path}` → `{"text": "…"}` (strict UTF-8, at most 8 MiB).
    FsRead { path: String },
    /// `fs.write {path, text}` → `{"bytes": N}`; needs `"workspace": "read-write"` and the person's approval.
    FsWrite { path: String, text: String },
    /// `fs.list {path}` → `{"entries": [{"path", "directory", "size"}, …]}` (at most 1000 entries).
    FsList { path: String },
    /// `kv.get {key}` → `{"value": …}`, `value` absent or null when the key has none; needs `"storage": true`.
    KvGet { key: String },
    /// `kv.put {key, value}` → `{}`; `value` is any JSON value.
    KvPut { key: String, value: Value },
    /// `kv.delete {key}` → `{}`.
    KvDelete { key: String },
}

/// The `op` names, in the order of seed 004's table.
pub const HOST_OPS: [&str; 6] = ["fs.read", "fs.write", "fs.list", "kv.get", "kv.put", "kv.delete"];

impl HostOp {
    /// The wire name of the operation, e.g. `"fs.read"`.
    pub fn name(&self) -> &'static str {
        match self {
            HostOp::FsRead { .. } => "fs.read",
            HostOp::FsWrite { .. } => "fs.write",
            HostOp::FsList { .. } => "fs.list",
            HostOp::KvGet { .. } => "kv.get",
            HostOp::KvPut { .. } => "kv.put",
            HostOp::KvDelete { .. } => "kv.delete",
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PathArgs {
    path: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteArgs {
    path: String,
    text: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyArgs {
    key: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PutArgs {
    key: String,
    value: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireHostCall {
    id: u32,
    op: String,
    args: Value,
}

fn args<T: DeserializeOwned, E: de::Error>(op: &str, value: Value) -> Result<T, E> {
    serde_json::from_value(value).map_err(|e| E::custom(format_args!("invalid args of {}: {}", op, e)))
}

pub(crate) fn check_host_call_id<E: de::Error>(id: u32) -> Result<u32, E> {
    if id == 0 || id > MAX_HOST_CALLS {
        return Err(E::custom(format_args!("host call id {} is out of range 1..={}", id, MAX_HOST_CALLS)));
    }
    Ok(id)
}

impl<'de> Deserialize<'de> for HostCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireHostCall::deserialize(deserializer)?;
        let id = check_host_call_id(wire.id)?;
        let op = match wire.op.as_str() {
            "fs.read" => {
                let a: PathArgs = args(&wire.op, wire.args)?;
                HostOp::FsRead { path: a.path }
            }
            "fs.write" => {
                let a: WriteArgs = args(&wire.op, wire.args)?;
                HostOp::FsWrite { path: a.path, text: a.text }
            }
            "fs.list" => {
                let a: PathArgs = args(&wire.op, wire.args)?;
                HostOp::FsList { path: a.path }
            }
            "kv.get" => {
                let a: KeyArgs = args(&wire.op, wire.args)?;
                HostOp::KvGet { key: a.key }
            }
            "kv.put" => {
                let a: PutArgs = args(&wire.op, wire.args)?;
                HostOp::KvPut { key: a.key, value: a.value }
            }
            "kv.delete" => {
                let a: KeyArgs = args(&wire.op, wire.args)?;
                HostOp::KvDelete { key: a.key }
            }
            other => {
                return Err(de::Error::custom(format_args!(
                    "unknown host operation {:?}; expected one of {}",
                    other,
                    HOST_OPS.join(", ")
                )))
            }
        };
        Ok(HostCall { id, op })
    }
}

/// `args` borrowed for serialisation, so a 8 MiB `fs.write` text is not copied.
#[derive(Serialize)]
#[serde(untagged)]
enum ArgsRef<'a> {
    Path { path: &'a str },
    Write { path: &'a str, text: &'a str },
    Key { key: &'a str },
    Put { key: &'a str, value: &'a Value },
}

impl Serialize for HostCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let args = match &self.op {
            HostOp::FsRead { path } | HostOp::FsList { path } => ArgsRef::Path { path },
            HostOp::FsWrite { path, text } => ArgsRef::Write { path, text },
            HostOp::KvGet { key } | HostOp::KvDelete { key } => ArgsRef::Key { key },
            HostOp::KvPut { key, value } => ArgsRef::Put { key, value },
        };
        let mut s = serializer.serialize_struct("HostCall", 3)?;
        s.serialize_field("id", &self.id)?;
        s.serialize_field("op", self.op.name())?;
        s.serialize_field("args", &args)?;
        s.end()
    }
}
