use serde::Serialize;

use crate::{HostCall, HostOp};

/// What a plugin returns from each step: ask the host for one operation, or end the invocation.
#[derive(Debug, Clone, PartialEq)]
pub enum StepOutput {
    /// Ask for a host operation; the answer arrives in [`crate::Plugin::resume`]. Build it with the `host_*`
    /// helpers. Ids are 1 for the first call of an invocation, then 2, 3, … (at most 128).
    HostCall(HostCall),
    /// End the invocation with this text, given to the model as the tool result (at most 1 MiB).
    Done(String),
    /// End the invocation with a failure the model and the person will see (at most 1 MiB).
    Error(String),
}

impl StepOutput {
    /// End the invocation successfully with `text` (often a small JSON document).
    pub fn done(text: impl Into<String>) -> Self {
        StepOutput::Done(text.into())
    }

    /// End the invocation successfully with `value` serialised as JSON.
    pub fn done_json<T: Serialize + ?Sized>(value: &T) -> Self {
        match serde_json::to_string(value) {
            Ok(text) => StepOutput::Done(text),
            Err(error) => StepOutput::Error(format!("could not serialise the output: {}", error)),
        }
    }

    /// End the invocation with a failure described by `text`.
    pub fn error(text: impl Into<String>) -> Self {
        StepOutput::Error(text.into())
    }

    /// Ask for any host operation; the `host_*` helpers are shorter.
    pub fn host_call(id: u32, op: HostOp) -> Self {
        StepOutput::HostCall(HostCall { id, op })
    }
}
