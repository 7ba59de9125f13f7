//! Write a `harness-wasm-v1` tool plugin in safe Rust.
//!
//! Implement [`Plugin`] for a `Default` type and call [`export_plugin!`] once. The SDK owns the ABI
//! (`harness_abi_version`, `harness_alloc`, `harness_free`, `harness_step`), all buffers and the protocol checks;
//! plugin code only sees [`ToolRequest`], [`HostResponse`] and returns [`StepOutput`]s.
//!
//! ```
//! use harness_wasm_sdk::{export_plugin, host_read, HostResponse, Plugin, StepOutput, ToolRequest};
//!
//! #[derive(Default)]
//! struct WordCount;
//!
//! impl Plugin for WordCount {
//!     fn start(&mut self, request: ToolRequest) -> StepOutput {
//!         match request.arguments["path"].as_str() {
//!             Some(path) => host_read(1, path),
//!             None => StepOutput::error("path must be a string"),
//!         }
//!     }
//!     fn resume(&mut self, response: HostResponse) -> StepOutput {
//!         match response.parse::<harness_wasm_sdk::results::FsReadResult>() {
//!             Ok(file) => StepOutput::done(format!("{{\"words\":{}}}", file.text.split_whitespace().count())),
//!             Err(error) => StepOutput::error(error),
//!         }
//!     }
//! }
//!
//! export_plugin!(crate::WordCount);
//! # fn main() {}
//! ```
//!
//! See `sdk-rust/README.md` for the tutorial, the ABI and the limits.

mod host;
mod plugin;
mod session;
mod step_output;
pub mod testing;

pub use harness_wasm_protocol::{
    limits, results, HostCall, HostOp, HostResponse, InputFrame, OutputFrame, ToolRequest,
};
pub use host::{host_kv_delete, host_kv_get, host_kv_put, host_list, host_read, host_write};
pub use plugin::Plugin;
pub use step_output::StepOutput;

/// Re-exported so that plugins need no direct `serde_json` dependency for `arguments` and KV values.
pub use serde_json;
pub use serde_json::{json, Value};

/// Used by [`export_plugin!`]; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::session::Session;
    pub use harness_wasm_protocol::limits::ABI_VERSION;
}

/// Generates the module's ABI for a [`Plugin`] type: `export_plugin!(crate::YourPlugin);`
///
/// On `wasm32` this exports `harness_abi_version() -> i32` (returns 1), `harness_alloc(len: i32) -> i32`,
/// `harness_free(ptr: i32, len: i32)` and `harness_step(ptr: i32, len: i32) -> i64` (returns
/// `(out_ptr << 32) | out_len`). On other targets it only checks that the type implements [`Plugin`], so the
/// crate's host-side `cargo test` never exports symbols that could clash with the C library.
/// Call it once per crate.
#[macro_export]
macro_rules! export_plugin {
    ($plugin:ty) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            static HARNESS_SESSION: $crate::__private::Session<$plugin> = $crate::__private::Session::new();

            #[no_mangle]
            pub extern "C" fn harness_abi_version() -> i32 {
                $crate::__private::ABI_VERSION
            }

            #[no_mangle]
            pub extern "C" fn harness_alloc(len: i32) -> i32 {
                HARNESS_SESSION.alloc(len as u32 as usize) as usize as i32
            }

            #[no_mangle]
            pub extern "C" fn harness_free(ptr: i32, len: i32) {
                HARNESS_SESSION.free(ptr as u32 as usize as *mut u8, len as u32 as usize)
            }

            #[no_mangle]
            pub extern "C" fn harness_step(ptr: i32, len: i32) -> i64 {
                let (out_ptr, out_len) = HARNESS_SESSION.step(ptr as u32 as usize as *mut u8, len as u32 as usize);
                (((out_ptr as usize as u64) << 32) | (out_len as u64)) as i64
            }
        };

        const _: fn() = || {
            fn implements_plugin<P: $crate::Plugin>() {}
            implements_plugin::<$plugin>();
        };
    };
}
