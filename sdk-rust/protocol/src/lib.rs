//! The frames of the `harness-wasm-v1` plugin protocol (seed 004), as serde types.
//!
//! Two directions, each a tiny discriminated union tagged by `"type"`:
//!
//! * host → plugin: [`InputFrame`] — `start` (one per invocation) and `resume` (the answer to a host call);
//! * plugin → host: [`OutputFrame`] — `host_call`, then finally `done` or `error`.
//!
//! Every object is strict: unknown fields, missing fields, unknown host operations and a response that carries
//! both `result` and `error` are rejected. The JSON files in `sdk-rust/fixtures/protocol/` are the shared truth
//! for this crate and for the TypeScript host; both test suites read them.

mod frames;
mod host_call;
mod host_response;
pub mod limits;
pub mod results;
mod tool_request;

pub use frames::{InputFrame, OutputFrame};
pub use host_call::{HostCall, HostOp};
pub use host_response::HostResponse;
pub use tool_request::ToolRequest;

/// Re-exported so that plugin code and this crate agree on one `Value` type.
pub use serde_json::Value;
