use serde::{Deserialize, Serialize};

use crate::{HostCall, HostResponse, ToolRequest};

/// A frame the host sends to the plugin (the input of `harness_step`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum InputFrame {
    /// `{"type":"start","request":{…}}`: the first frame of an invocation.
    Start { request: ToolRequest },
    /// `{"type":"resume","response":{…}}`: the answer to the pending host call.
    Resume { response: HostResponse },
}

/// A frame the plugin returns to the host (the output of `harness_step`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum OutputFrame {
    /// `{"type":"host_call","request":{"id":1,"op":"fs.read","args":{…}}}`: the plugin waits for a `resume`.
    HostCall { request: HostCall },
    /// `{"type":"done","output":"…"}`: the invocation's final text (at most 1 MiB).
    Done { output: String },
    /// `{"type":"error","error":"…"}`: the invocation failed with this description (at most 1 MiB).
    Error { error: String },
}

impl InputFrame {
    /// Parses one UTF-8 JSON frame.
    pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Self> {
        serde_json::from_slice(bytes)
    }
}

impl OutputFrame {
    /// Parses one UTF-8 JSON frame.
    pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Self> {
        serde_json::from_slice(bytes)
    }

    /// Serialises the frame to UTF-8 JSON.
    pub fn to_vec(&self) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(self)
    }
}
