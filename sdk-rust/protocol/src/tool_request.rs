use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The request of a `start` frame, flattened for plugin code.
///
/// On the wire the tool name and arguments sit under `data`:
/// `{"id":"inv-1","event":"tool","workspace_id":"default","data":{"name":"count_words","arguments":{…}}}`.
/// `name` is the tool's local name from `manifest.json` (never the host's public name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "WireToolRequest", into = "WireToolRequest")]
pub struct ToolRequest {
    /// The invocation id chosen by the host.
    pub id: String,
    /// What started the invocation; `"tool"` for a model tool call.
    pub event: String,
    /// The workspace the invocation runs in.
    pub workspace_id: String,
    /// Local tool name, one of the manifest's `tools[].name`.
    pub name: String,
    /// Arguments, already validated by the host against the tool's `parameters` schema.
    pub arguments: Value,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireToolRequest {
    id: String,
    event: String,
    workspace_id: String,
    data: WireToolData,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireToolData {
    name: String,
    arguments: Value,
}

impl From<WireToolRequest> for ToolRequest {
    fn from(wire: WireToolRequest) -> Self {
        ToolRequest {
            id: wire.id,
            event: wire.event,
            workspace_id: wire.workspace_id,
            name: wire.data.name,
            arguments: wire.data.arguments,
        }
    }
}

impl From<ToolRequest> for WireToolRequest {
    fn from(request: ToolRequest) -> Self {
        WireToolRequest {
            id: request.id,
            event: request.event,
            workspace_id: request.workspace_id,
            data: WireToolData { name: request.name, arguments: request.arguments },
        }
    }
}
