//! The state machine and buffer ownership behind the exported ABI.
//!
//! Ownership rule (the host side relies on it, see README.md "ABI"):
//! 1. `harness_alloc(len)` returns a fresh buffer of `len` bytes (0 when `len` is 0, above 16 MiB, or memory is
//!    exhausted). The host writes one frame into it.
//! 2. `harness_step(ptr, len)` takes that buffer back and frees it before returning, whatever the outcome.
//! 3. The returned `(out_ptr, out_len)` buffer belongs to the SDK. The host copies it out and then calls
//!    `harness_free(out_ptr, out_len)`; if it does not, the next `harness_step` frees it. It is never valid after
//!    either.
//! 4. `harness_free` also releases a buffer from `harness_alloc` that was never stepped. Any other pointer, or a
//!    second free of the same buffer, is ignored: a confused host cannot corrupt the allocator.
//!
//! Nothing else is heap-allocated between steps except the plugin's own state, and that is dropped when the
//! invocation ends with `done` or `error`.

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;

use harness_wasm_protocol::limits::{MAX_FRAME_BYTES, MAX_HOST_CALLS, MAX_OUTPUT_BYTES};
use harness_wasm_protocol::{InputFrame, OutputFrame};

use crate::{Plugin, StepOutput};

/// Buffers the host may hold from `harness_alloc` before stepping them. It needs one; a few spare slots keep a
/// host that allocates ahead working, and a fixed array keeps the bookkeeping itself off the heap.
const INPUT_SLOTS: usize = 4;

pub struct Session<P> {
    inner: RefCell<Inner<P>>,
}

struct Inner<P> {
    plugin: Option<P>,
    /// Id of the host call whose answer is awaited, 0 when none.
    pending: u32,
    /// Id of the last host call of this invocation, 0 before the first.
    last_id: u32,
    output: Option<Vec<u8>>,
    inputs: [(usize, usize); INPUT_SLOTS],
}

// A wasm32 module without the threads feature runs on one thread: the exported functions are never re-entered
// concurrently, so the one static session may be shared. Native builds (tests) own their session instead.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl<P> Sync for Session<P> {}

impl<P> Session<P> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Session {
            inner: RefCell::new(Inner {
                plugin: None,
                pending: 0,
                last_id: 0,
                output: None,
                inputs: [(0, 0); INPUT_SLOTS],
            }),
        }
    }

    /// `harness_alloc`: a buffer for one input frame, or null.
    pub fn alloc(&self, len: usize) -> *mut u8 {
        if len == 0 || len > MAX_FRAME_BYTES {
            return std::ptr::null_mut();
        }
        let mut inner = self.inner.borrow_mut();
        let slot = match inner.inputs.iter().position(|s| s.0 == 0) {
            Some(slot) => slot,
            None => return std::ptr::null_mut(),
        };
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(byte_layout(len)) };
        if !ptr.is_null() {
            inner.inputs[slot] = (ptr as usize, len);
        }
        ptr
    }

    /// `harness_free`: releases the current output or an input never stepped; ignores anything else.
    pub fn free(&self, ptr: *mut u8, len: usize) {
        let mut inner = self.inner.borrow_mut();
        if let Some(output) = &inner.output {
            if std::ptr::eq(output.as_ptr(), ptr) && output.len() == len {
                inner.output = None;
                return;
            }
        }
        if let Some(slot) = inner.take_input(ptr, len) {
            // SAFETY: the slot proves this exact (ptr, len) came from `alloc` and was not freed since.
            unsafe { dealloc(slot as *mut u8, byte_layout(len)) }
        }
    }

    pub fn step(&self, ptr: *mut u8, len: usize) -> (*const u8, usize)
    where
        P: Plugin,
    {
        let mut inner = self.inner.borrow_mut();
        inner.output = None;
        let parsed = match inner.take_input(ptr, len) {
            Some(addr) => {
                // SAFETY: `alloc` handed out exactly this buffer and the host wrote `len` bytes into it.
                let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, len) };
                let parsed = InputFrame::from_slice(bytes).map_err(|e| format!("invalid frame from the host: {}", e));
                // SAFETY: as above; the parsed frame owns its data, nothing borrows the buffer any more.
                unsafe { dealloc(addr as *mut u8, byte_layout(len)) }
                parsed
            }
            None => Err(String::from("harness_step was given a buffer that did not come from harness_alloc")),
        };
        let frame = inner.dispatch(parsed);
        let bytes = encode(frame, &mut inner);
        let out = (bytes.as_ptr(), bytes.len());
        inner.output = Some(bytes);
        out
    }
}

impl<P: Plugin> Inner<P> {
    fn dispatch(&mut self, frame: Result<InputFrame, String>) -> OutputFrame {
        match frame {
            Err(error) => self.finish(OutputFrame::Error { error }),
            Ok(InputFrame::Start { request }) => {
                if self.plugin.is_some() {
                    return self.finish(error_frame(String::from(
                        "start arrived while an invocation was still waiting for a host call; the invocation was ended",
                    )));
                }
                let mut plugin = P::default();
                let output = plugin.start(request);
                self.plugin = Some(plugin);
                self.accept(output)
            }
            Ok(InputFrame::Resume { response }) => {
                if self.pending == 0 {
                    return self.finish(error_frame(format!(
                        "resume for host call {} arrived but no host call is pending",
                        response.id
                    )));
                }
                if response.id != self.pending {
                    let message = format!(
                        "resume answers host call {} but the pending host call is {}",
                        response.id, self.pending
                    );
                    return self.finish(error_frame(message));
                }
                let output = match self.plugin.as_mut() {
                    Some(plugin) => plugin.resume(response),
                    None => StepOutput::error("resume arrived but no invocation is running"),
                };
                self.accept(output)
            }
        }
    }

    fn accept(&mut self, output: StepOutput) -> OutputFrame {
        match output {
            StepOutput::HostCall(request) => {
                let expected = self.last_id + 1;
                if expected > MAX_HOST_CALLS {
                    let message =
                        format!("the plugin asked for more than {} host calls in one invocation", MAX_HOST_CALLS);
                    return self.finish(error_frame(message));
                }
                if request.id != expected {
                    let message = format!(
                        "host call ids must be 1, 2, 3, … in order: this call should have id {} but has id {}",
                        expected, request.id
                    );
                    return self.finish(error_frame(message));
                }
                self.last_id = expected;
                self.pending = expected;
                OutputFrame::HostCall { request }
            }
            StepOutput::Done(output) => {
                if output.len() > MAX_OUTPUT_BYTES {
                    let message = format!(
                        "the plugin's output is {} bytes; the limit is {} bytes (1 MiB): return less text",
                        output.len(),
                        MAX_OUTPUT_BYTES
                    );
                    return self.finish(OutputFrame::Error { error: message });
                }
                self.finish(OutputFrame::Done { output })
            }
            StepOutput::Error(error) => self.finish(error_frame(error)),
        }
    }

    /// Ends the invocation: its state is dropped and the next frame must be a new `start`.
    fn finish(&mut self, frame: OutputFrame) -> OutputFrame {
        self.plugin = None;
        self.pending = 0;
        self.last_id = 0;
        frame
    }
}

impl<P> Inner<P> {
    fn take_input(&mut self, ptr: *mut u8, len: usize) -> Option<usize> {
        let addr = ptr as usize;
        if addr == 0 {
            return None;
        }
        let slot = self.inputs.iter().position(|s| *s == (addr, len))?;
        self.inputs[slot] = (0, 0);
        Some(addr)
    }
}

fn byte_layout(len: usize) -> Layout {
    // A byte array of at most 16 MiB always has a valid layout.
    Layout::from_size_align(len, 1).expect("frame sizes are bounded by MAX_FRAME_BYTES")
}

/// An error frame whose text fits the 1 MiB output limit (cut at a character boundary).
fn error_frame(mut error: String) -> OutputFrame {
    if error.len() > MAX_OUTPUT_BYTES {
        let mut cut = MAX_OUTPUT_BYTES - 3;
        while !error.is_char_boundary(cut) {
            cut -= 1;
        }
        error.truncate(cut);
        error.push('…');
    }
    OutputFrame::Error { error }
}

fn encode<P: Plugin>(frame: OutputFrame, inner: &mut Inner<P>) -> Vec<u8> {
    match frame.to_vec() {
        Ok(bytes) if bytes.len() <= MAX_FRAME_BYTES => bytes,
        Ok(bytes) => {
            let message = format!(
                "the plugin's frame is {} bytes; protocol frames are at most {} bytes (16 MiB)",
                bytes.len(),
                MAX_FRAME_BYTES
            );
            drop(bytes);
            let frame = inner.finish(OutputFrame::Error { error: message });
            frame.to_vec().unwrap_or_else(|_| FALLBACK.to_vec())
        }
        Err(_) => {
            inner.finish(OutputFrame::Error { error: String::new() });
            FALLBACK.to_vec()
        }
    }
}

const FALLBACK: &[u8] = br#"{"type":"error","error":"the plugin's output could not be encoded as JSON"}"#;
