use crate::{HostResponse, StepOutput, ToolRequest};

/// A tool plugin. One value is created with `Default` for each invocation, receives exactly one `start`, then one
/// `resume` per host call it asked for, and is dropped once it returns `done` or `error`: nothing carries over to
/// the next invocation (keep lasting data in KV with `host_kv_put`).
pub trait Plugin: Default {
    /// The invocation begins. `request.name` is the local tool name from `manifest.json`, `request.arguments` the
    /// arguments the host already validated against that tool's `parameters` schema.
    fn start(&mut self, request: ToolRequest) -> StepOutput;

    /// The host answers the host call this plugin returned last (`response.id` is that call's id; the SDK has
    /// checked it). `response.ok` false means the operation failed: read `response.error`.
    fn resume(&mut self, response: HostResponse) -> StepOutput {
        StepOutput::error(format!(
            "this plugin does not implement resume but received the answer to host call {}",
            response.id
        ))
    }
}
