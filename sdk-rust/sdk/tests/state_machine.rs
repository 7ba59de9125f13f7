//! The SDK's state machine, driven through the same alloc/step/free path as the exported ABI.

use harness_wasm_sdk::testing::Driver;
use harness_wasm_sdk::{
    host_kv_put, host_read, json, HostCall, HostOp, HostResponse, OutputFrame, Plugin, StepOutput, ToolRequest,
};

/// Reads the file named by `path`, then reads it again `extra` more times, then answers with the text length.
#[derive(Default)]
struct Reader {
    path: String,
    extra: u32,
    calls: u32,
}

impl Plugin for Reader {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        self.path = request.arguments["path"].as_str().unwrap_or("").into();
        self.extra = request.arguments["extra"].as_u64().unwrap_or(0) as u32;
        self.calls = 1;
        host_read(1, self.path.as_str())
    }
    fn resume(&mut self, response: HostResponse) -> StepOutput {
        let text = match response.into_result() {
            Ok(result) => result["text"].as_str().unwrap_or("").to_string(),
            Err(error) => return StepOutput::error(format!("read failed: {}", error)),
        };
        if self.calls <= self.extra {
            self.calls += 1;
            return host_read(self.calls, self.path.as_str());
        }
        StepOutput::done(format!("{} chars", text.chars().count()))
    }
}

fn read_call(id: u32) -> OutputFrame {
    OutputFrame::HostCall { request: HostCall { id, op: HostOp::FsRead { path: "a.txt".into() } } }
}

fn error_text(frame: OutputFrame) -> String {
    match frame {
        OutputFrame::Error { error } => error,
        other => panic!("expected an error frame, got {:?}", other),
    }
}

#[test]
fn start_host_call_resume_done() {
    let driver = Driver::<Reader>::new();
    assert_eq!(driver.start("read", json!({"path": "a.txt"})), read_call(1));
    let done = driver.resume(HostResponse::success(1, json!({"text": "héllo"})));
    assert_eq!(done, OutputFrame::Done { output: "5 chars".into() });
}

#[test]
fn several_host_calls_in_one_invocation_count_up_from_one() {
    let driver = Driver::<Reader>::new();
    assert_eq!(driver.start("read", json!({"path": "a.txt", "extra": 2})), read_call(1));
    assert_eq!(driver.resume(HostResponse::success(1, json!({"text": ""}))), read_call(2));
    assert_eq!(driver.resume(HostResponse::success(2, json!({"text": ""}))), read_call(3));
    assert!(matches!(driver.resume(HostResponse::success(3, json!({"text": "ab"}))), OutputFrame::Done { .. }));
}

#[test]
fn failed_host_response_reaches_the_plugin() {
    let driver = Driver::<Reader>::new();
    driver.start("read", json!({"path": "a.txt"}));
    let frame = driver.resume(HostResponse::failure(1, "E_FS_NOT_FOUND: a.txt"));
    assert_eq!(error_text(frame), "read failed: E_FS_NOT_FOUND: a.txt");
}

#[test]
fn invocations_do_not_share_state() {
    let driver = Driver::<Reader>::new();
    driver.start("read", json!({"path": "a.txt", "extra": 5}));
    driver.resume(HostResponse::failure(1, "gone"));
    // A fresh Reader: extra is 0 again, so one read finishes it, and ids restart at 1.
    assert_eq!(driver.start("read", json!({"path": "a.txt"})), read_call(1));
    assert!(matches!(driver.resume(HostResponse::success(1, json!({"text": "x"}))), OutputFrame::Done { .. }));
}

#[test]
fn bad_frames_become_error_output_and_end_the_invocation() {
    let driver = Driver::<Reader>::new();
    for bad in [
        &b"not json"[..],
        br#"{"type":"resume","response":{"id":1,"ok":true,"result":{},"error":"x"}}"#,
        br#"{"type":"start","request":{"id":"i","event":"tool","workspace_id":"w"}}"#,
        br#"{"type":"done","output":"from the host?"}"#,
        b"\xff\xfe",
    ] {
        let out = driver.step_bytes(bad);
        let frame = OutputFrame::from_slice(&out).unwrap();
        assert!(error_text(frame).starts_with("invalid frame from the host: "));
    }
    // Mid-invocation: the bad frame also ends the invocation, so a later resume is refused.
    driver.start("read", json!({"path": "a.txt"}));
    driver.step_bytes(b"{}");
    let late = driver.resume(HostResponse::success(1, json!({"text": ""})));
    assert!(error_text(late).contains("no host call is pending"));
}

#[test]
fn resume_with_the_wrong_id_is_refused() {
    let driver = Driver::<Reader>::new();
    driver.start("read", json!({"path": "a.txt"}));
    let frame = driver.resume(HostResponse::success(2, json!({"text": ""})));
    assert_eq!(error_text(frame), "resume answers host call 2 but the pending host call is 1");
}

#[test]
fn resume_before_start_is_refused() {
    let driver = Driver::<Reader>::new();
    let frame = driver.resume(HostResponse::success(1, json!({"text": ""})));
    assert!(error_text(frame).contains("no host call is pending"));
}

#[test]
fn start_during_an_invocation_ends_it_with_an_error() {
    let driver = Driver::<Reader>::new();
    driver.start("read", json!({"path": "a.txt"}));
    let frame = driver.start("read", json!({"path": "a.txt"}));
    assert!(error_text(frame).contains("start arrived while an invocation"));
    assert_eq!(driver.start("read", json!({"path": "a.txt"})), read_call(1));
}

/// Misbehaves in the way its tool name says.
#[derive(Default)]
struct Misbehaving {
    calls: u32,
}

impl Plugin for Misbehaving {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        match request.name.as_str() {
            "skip_id" => host_read(2, "a"),
            "zero_id" => host_read(0, "a"),
            "too_many" => {
                self.calls = 1;
                host_kv_put(1, "k", 1)
            }
            "huge_output" => StepOutput::done("x".repeat(1024 * 1024 + 1)),
            "huge_error" => StepOutput::error("é".repeat(600 * 1024)),
            "max_output" => StepOutput::done("x".repeat(1024 * 1024)),
            _ => StepOutput::done("?"),
        }
    }
    fn resume(&mut self, _response: HostResponse) -> StepOutput {
        self.calls += 1;
        host_kv_put(self.calls, "k", self.calls)
    }
}

#[test]
fn host_call_ids_out_of_order_become_a_clear_error() {
    let driver = Driver::<Misbehaving>::new();
    let frame = driver.start("skip_id", json!({}));
    assert!(error_text(frame).contains("should have id 1 but has id 2"));
    let frame = driver.start("zero_id", json!({}));
    assert!(error_text(frame).contains("should have id 1 but has id 0"));
}

#[test]
fn the_129th_host_call_is_refused() {
    let driver = Driver::<Misbehaving>::new();
    let mut frame = driver.start("too_many", json!({}));
    for id in 1..=128u32 {
        match frame {
            OutputFrame::HostCall { request } => assert_eq!(request.id, id),
            other => panic!("call {}: {:?}", id, other),
        }
        frame = driver.resume(HostResponse::success(id, json!({})));
    }
    assert!(error_text(frame).contains("more than 128 host calls"));
}

#[test]
fn output_over_one_mib_becomes_an_error_and_long_errors_are_cut() {
    let driver = Driver::<Misbehaving>::new();
    assert!(matches!(driver.start("max_output", json!({})), OutputFrame::Done { output } if output.len() == 1 << 20));
    assert!(error_text(driver.start("huge_output", json!({}))).contains("the limit is 1048576 bytes"));
    let cut = error_text(driver.start("huge_error", json!({})));
    assert!(cut.len() <= 1 << 20 && cut.ends_with('…'), "{}", cut.len());
}

#[test]
fn plugin_without_resume_gets_a_default_that_fails_cleanly() {
    #[derive(Default)]
    struct OneShot;
    impl Plugin for OneShot {
        fn start(&mut self, _request: ToolRequest) -> StepOutput {
            host_read(1, "a")
        }
    }
    let driver = Driver::<OneShot>::new();
    driver.start("x", json!({}));
    let frame = driver.resume(HostResponse::success(1, json!({"text": ""})));
    assert!(error_text(frame).contains("does not implement resume"));
}

#[test]
fn abi_buffers_follow_the_ownership_rule() {
    let driver = Driver::<Reader>::new();
    assert!(driver.alloc(0).is_null());
    assert!(driver.alloc(16 * 1024 * 1024 + 1).is_null());
    // Buffers allocated and never stepped are released by free; double frees and foreign pointers are ignored.
    let a = driver.alloc(10);
    assert!(!a.is_null());
    driver.free(a, 10);
    driver.free(a, 10);
    let mut local = [0u8; 4];
    driver.free(local.as_mut_ptr(), 4);
    // Stepping a pointer that harness_alloc never returned is an error frame, not a crash.
    let frame = OutputFrame::from_slice(&driver.step_bytes_unfreed(b"{}")).unwrap();
    assert!(matches!(frame, OutputFrame::Error { .. }));
    // At most four input buffers may be outstanding.
    let held: Vec<_> = (0..4).map(|_| driver.alloc(8)).collect();
    assert!(held.iter().all(|p| !p.is_null()));
    assert!(driver.alloc(8).is_null());
    for p in held {
        driver.free(p, 8);
    }
    assert!(!driver.alloc(8).is_null());
}
