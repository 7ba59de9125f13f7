//! Test a plugin on the host with `cargo test`, through the same code path the exported ABI uses.
//!
//! ```
//! use harness_wasm_sdk::testing::{Driver, MemoryHost};
//! use harness_wasm_sdk::{json, host_read, HostResponse, OutputFrame, Plugin, StepOutput, ToolRequest};
//!
//! #[derive(Default)]
//! struct Cat;
//! impl Plugin for Cat {
//!     fn start(&mut self, request: ToolRequest) -> StepOutput {
//!         host_read(1, request.arguments["path"].as_str().unwrap_or_default())
//!     }
//!     fn resume(&mut self, response: HostResponse) -> StepOutput {
//!         match response.into_result() {
//!             Ok(result) => StepOutput::done(result["text"].as_str().unwrap_or_default()),
//!             Err(error) => StepOutput::error(error),
//!         }
//!     }
//! }
//!
//! let mut host = MemoryHost::new().with_file("a.txt", "hello");
//! let output = Driver::<Cat>::new().run("cat", json!({"path": "a.txt"}), &mut host);
//! assert_eq!(output, OutputFrame::Done { output: "hello".into() });
//! ```

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::session::Session;
use crate::{HostCall, HostOp, HostResponse, InputFrame, OutputFrame, Plugin, ToolRequest};

/// Drives one plugin instance the way the host does: every frame is serialised, copied into a buffer from
/// `harness_alloc`, stepped, copied out of the returned buffer and released with `harness_free`.
pub struct Driver<P> {
    session: Session<P>,
}

impl<P: Plugin> Default for Driver<P> {
    fn default() -> Self {
        Driver::new()
    }
}

impl<P: Plugin> Driver<P> {
    pub fn new() -> Self {
        Driver { session: Session::new() }
    }

    /// One raw step: `bytes` in, a copy of the output frame's bytes out; the output buffer is then released
    /// with `harness_free`, as the host does.
    pub fn step_bytes(&self, bytes: &[u8]) -> Vec<u8> {
        let (ptr, len) = self.raw_step(bytes);
        // SAFETY: the session owns this buffer until the next step or free; it is copied before either.
        let copy = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
        self.session.free(ptr as *mut u8, len);
        copy
    }

    /// Like [`Driver::step_bytes`] but leaves the output buffer with the SDK, as a host that never calls
    /// `harness_free` would: the next step must release it.
    pub fn step_bytes_unfreed(&self, bytes: &[u8]) -> Vec<u8> {
        let (ptr, len) = self.raw_step(bytes);
        // SAFETY: as in `step_bytes`.
        unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
    }

    fn raw_step(&self, bytes: &[u8]) -> (*const u8, usize) {
        let ptr = self.session.alloc(bytes.len());
        assert!(!ptr.is_null(), "harness_alloc({}) returned null", bytes.len());
        // SAFETY: `ptr` is a fresh buffer of exactly `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len()) };
        self.session.step(ptr, bytes.len())
    }

    /// Exposes `harness_alloc` / `harness_free` for tests of the ownership rules.
    pub fn alloc(&self, len: usize) -> *mut u8 {
        self.session.alloc(len)
    }

    /// See [`Driver::alloc`].
    pub fn free(&self, ptr: *mut u8, len: usize) {
        self.session.free(ptr, len)
    }

    /// Steps one frame and decodes the answer (panics if the SDK produced an invalid frame).
    pub fn step(&self, frame: &InputFrame) -> OutputFrame {
        let bytes = serde_json::to_vec(frame).expect("input frames serialise");
        let out = self.step_bytes(&bytes);
        OutputFrame::from_slice(&out).expect("the SDK emits valid output frames")
    }

    /// Sends `start` for the local tool `name` with `arguments` (invocation id `test`, workspace `default`).
    pub fn start(&self, name: &str, arguments: Value) -> OutputFrame {
        let request = ToolRequest {
            id: String::from("test"),
            event: String::from("tool"),
            workspace_id: String::from("default"),
            name: String::from(name),
            arguments,
        };
        self.step(&InputFrame::Start { request })
    }

    /// Sends `resume` with `response`.
    pub fn resume(&self, response: HostResponse) -> OutputFrame {
        self.step(&InputFrame::Resume { response })
    }

    /// Runs a whole invocation, answering each host call with `host`, and returns the final `done` or `error`.
    pub fn run(&self, name: &str, arguments: Value, host: &mut MemoryHost) -> OutputFrame {
        let mut frame = self.start(name, arguments);
        loop {
            match frame {
                OutputFrame::HostCall { request } => {
                    host.calls.push(request.clone());
                    frame = self.resume(host.answer(&request));
                }
                last => return last,
            }
        }
    }
}

/// An in-memory workspace and KV store that answers host calls like the real host (same result shapes).
#[derive(Debug, Clone, Default)]
pub struct MemoryHost {
    /// Files by workspace-relative path.
    pub files: BTreeMap<String, String>,
    pub kv: BTreeMap<String, Value>,
    /// When true, `fs.write` fails as if the person refused it.
    pub refuse_writes: bool,
    /// Every host call answered, in order.
    pub calls: Vec<HostCall>,
}

impl MemoryHost {
    pub fn new() -> Self {
        MemoryHost::default()
    }

    pub fn with_file(mut self, path: &str, text: &str) -> Self {
        self.files.insert(String::from(path), String::from(text));
        self
    }

    /// The answer the host would give to `call`.
    pub fn answer(&mut self, call: &HostCall) -> HostResponse {
        let id = call.id;
        match &call.op {
            HostOp::FsRead { path } => match self.files.get(path) {
                Some(text) => HostResponse::success(id, json!({ "text": text })),
                None => HostResponse::failure(id, format!("E_FS_NOT_FOUND: {} does not exist", path)),
            },
            HostOp::FsWrite { path, text } => {
                if self.refuse_writes {
                    return HostResponse::failure(id, "E_APPROVAL_DENIED: the person refused the write");
                }
                self.files.insert(path.clone(), text.clone());
                HostResponse::success(id, json!({ "bytes": text.len() }))
            }
            HostOp::FsList { path } => self.list(id, path),
            HostOp::KvGet { key } => match self.kv.get(key) {
                Some(value) => HostResponse::success(id, json!({ "value": value })),
                None => HostResponse::success(id, json!({})),
            },
            HostOp::KvPut { key, value } => {
                self.kv.insert(key.clone(), value.clone());
                HostResponse::success(id, json!({}))
            }
            HostOp::KvDelete { key } => {
                self.kv.remove(key);
                HostResponse::success(id, json!({}))
            }
        }
    }

    /// Direct children of `dir` ("" or "." is the root), derived from the file paths.
    fn list(&self, id: u32, dir: &str) -> HostResponse {
        let prefix = match dir.trim_end_matches('/') {
            "" | "." => String::new(),
            d => format!("{}/", d),
        };
        let mut entries: BTreeMap<String, (bool, u64)> = BTreeMap::new();
        for (path, text) in &self.files {
            let rest = match path.strip_prefix(&prefix) {
                Some(rest) => rest,
                None => continue,
            };
            match rest.split_once('/') {
                Some((child, _)) => {
                    entries.insert(format!("{}{}", prefix, child), (true, 0));
                }
                None => {
                    entries.insert(path.clone(), (false, text.len() as u64));
                }
            }
        }
        if entries.is_empty() && !prefix.is_empty() {
            return HostResponse::failure(id, format!("E_FS_NOT_FOUND: {} is not a directory", dir));
        }
        let entries: Vec<Value> = entries
            .into_iter()
            .map(|(path, (directory, size))| json!({ "path": path, "directory": directory, "size": size }))
            .collect();
        HostResponse::success(id, json!({ "entries": entries }))
    }
}
