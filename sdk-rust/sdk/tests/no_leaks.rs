//! Counts heap allocations and frees made on this thread while whole invocations run through the ABI path:
//! after each invocation the SDK must hold nothing, whether the host frees each output buffer or leaves it to
//! the next step. One test per file, because the counter is process-wide.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};

use harness_wasm_sdk::testing::Driver;
use harness_wasm_sdk::{host_kv_get, host_read, json, HostResponse, InputFrame, Plugin, StepOutput, ToolRequest};

struct Counting;

static LIVE_BLOCKS: AtomicIsize = AtomicIsize::new(0);
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
}

fn tracked() -> bool {
    TRACKING.try_with(|t| t.get()).unwrap_or(false)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() && tracked() {
            LIVE_BLOCKS.fetch_add(1, Ordering::SeqCst);
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::SeqCst);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if tracked() {
            LIVE_BLOCKS.fetch_sub(1, Ordering::SeqCst);
            LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        }
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> (isize, isize) {
    (LIVE_BLOCKS.load(Ordering::SeqCst), LIVE_BYTES.load(Ordering::SeqCst))
}

/// Holds a growing buffer across steps, so a leak of plugin state would show.
#[derive(Default)]
struct Collector {
    seen: Vec<String>,
}

impl Plugin for Collector {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        self.seen.push(request.name);
        host_read(1, "a.txt")
    }
    fn resume(&mut self, response: HostResponse) -> StepOutput {
        self.seen.push(response.result.map(|r| r.to_string()).unwrap_or_default());
        if response.id < 3 {
            return host_kv_get(response.id + 1, "k".repeat(100));
        }
        StepOutput::done(self.seen.join(","))
    }
}

fn frames() -> Vec<Vec<u8>> {
    let request = ToolRequest {
        id: "inv".into(),
        event: "tool".into(),
        workspace_id: "default".into(),
        name: "collect".into(),
        arguments: json!({"big": "y".repeat(10_000)}),
    };
    let mut frames = vec![serde_json::to_vec(&InputFrame::Start { request }).unwrap()];
    for id in 1..=3 {
        let response = HostResponse::success(id, json!({"text": "z".repeat(5_000)}));
        frames.push(serde_json::to_vec(&InputFrame::Resume { response }).unwrap());
    }
    frames
}

#[test]
fn no_allocation_outlives_an_invocation() {
    let frames = frames();
    let driver = Driver::<Collector>::new();
    TRACKING.with(|t| t.set(true));

    // The host frees every output buffer: nothing may be left after each invocation.
    for round in 0..20 {
        let before = live();
        for frame in &frames {
            let out = driver.step_bytes(frame);
            drop(out);
        }
        assert_eq!(live(), before, "round {}: the SDK kept memory after done", round);
    }

    // The host never calls harness_free: after each invocation exactly the last output buffer is held (the
    // same amount every round), and the next step frees it.
    let before = live();
    for frame in &frames {
        drop(driver.step_bytes_unfreed(frame));
    }
    let held = live();
    assert_eq!(held.0, before.0 + 1, "more than the last output buffer is held after done");
    for round in 0..20 {
        for frame in &frames {
            drop(driver.step_bytes_unfreed(frame));
        }
        assert_eq!(live(), held, "round {}: unfreed output buffers pile up", round);
    }
    let out = driver.step_bytes(b"not json");
    drop(out);
    assert_eq!(live(), before, "the last unfreed output was not released by the next step");

    // An invocation cut short by a bad frame drops the plugin state too.
    let before = live();
    driver.step_bytes(&frames[0]);
    driver.step_bytes(br#"{"type":"resume"}"#);
    assert_eq!(live(), before, "an invocation ended by a bad frame kept its state");

    TRACKING.with(|t| t.set(false));
}
