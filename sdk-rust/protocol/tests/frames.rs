use harness_wasm_protocol::results::{DirEntry, FsListResult, FsReadResult, KvGetResult};
use harness_wasm_protocol::{HostCall, HostOp, HostResponse, InputFrame, OutputFrame, ToolRequest};
use serde_json::json;

#[test]
fn start_frame_flattens_name_and_arguments_into_the_tool_request() {
    let frame = InputFrame::from_slice(
        br#"{"type":"start","request":{"id":"inv-7","event":"tool","workspace_id":"ws","data":{"name":"count_words","arguments":{"path":"a.txt"}}}}"#,
    )
    .unwrap();
    assert_eq!(
        frame,
        InputFrame::Start {
            request: ToolRequest {
                id: "inv-7".into(),
                event: "tool".into(),
                workspace_id: "ws".into(),
                name: "count_words".into(),
                arguments: json!({"path": "a.txt"}),
            }
        }
    );
}

#[test]
fn host_call_serialises_op_name_and_exact_args() {
    let cases = vec![
        (HostOp::FsRead { path: "a".into() }, json!({"id":3,"op":"fs.read","args":{"path":"a"}})),
        (
            HostOp::FsWrite { path: "a".into(), text: "t".into() },
            json!({"id":3,"op":"fs.write","args":{"path":"a","text":"t"}}),
        ),
        (HostOp::FsList { path: "".into() }, json!({"id":3,"op":"fs.list","args":{"path":""}})),
        (HostOp::KvGet { key: "k".into() }, json!({"id":3,"op":"kv.get","args":{"key":"k"}})),
        (
            HostOp::KvPut { key: "k".into(), value: json!(null) },
            json!({"id":3,"op":"kv.put","args":{"key":"k","value":null}}),
        ),
        (HostOp::KvDelete { key: "k".into() }, json!({"id":3,"op":"kv.delete","args":{"key":"k"}})),
    ];
    for (op, expected) in cases {
        let call = HostCall { id: 3, op };
        let value = serde_json::to_value(&call).unwrap();
        assert_eq!(value, expected);
        let back: HostCall = serde_json::from_value(value).unwrap();
        assert_eq!(back, call);
    }
}

#[test]
fn kv_put_without_value_is_refused_but_null_value_is_kept() {
    assert!(serde_json::from_value::<HostCall>(json!({"id":1,"op":"kv.put","args":{"key":"k"}})).is_err());
    let call: HostCall = serde_json::from_value(json!({"id":1,"op":"kv.put","args":{"key":"k","value":null}})).unwrap();
    assert_eq!(call.op, HostOp::KvPut { key: "k".into(), value: json!(null) });
}

#[test]
fn unknown_operation_error_names_the_known_ones() {
    let err = serde_json::from_value::<HostCall>(json!({"id":1,"op":"net.fetch","args":{}})).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("net.fetch") && message.contains("kv.delete"), "{}", message);
}

#[test]
fn error_response_never_carries_result_when_serialised() {
    let value = serde_json::to_value(HostResponse::failure(4, "denied")).unwrap();
    assert_eq!(value, json!({"id":4,"ok":false,"error":"denied"}));
    let value = serde_json::to_value(HostResponse::success(4, json!({}))).unwrap();
    assert_eq!(value, json!({"id":4,"ok":true,"result":{}}));
}

#[test]
fn typed_results_decode_and_failed_responses_yield_the_host_error() {
    let text: FsReadResult = HostResponse::success(1, json!({"text":"hi"})).parse().unwrap();
    assert_eq!(text.text, "hi");
    let list: FsListResult = HostResponse::success(
        1,
        json!({"entries":[{"path":"d","name":"d","directory":true,"size":0},{"path":"f.txt","directory":false,"size":3}]}),
    )
    .parse()
    .unwrap();
    assert_eq!(list.entries[1], DirEntry { path: "f.txt".into(), directory: false, size: 3 });
    let missing: KvGetResult = HostResponse::success(1, json!({})).parse().unwrap();
    assert_eq!(missing.value, None);
    let null: KvGetResult = HostResponse::success(1, json!({"value": null})).parse().unwrap();
    assert_eq!(null.value, None);
    let failed = HostResponse::failure(1, "E_FS_NOT_FOUND: gone").parse::<FsReadResult>();
    assert_eq!(failed.unwrap_err(), "E_FS_NOT_FOUND: gone");
    let wrong = HostResponse::success(1, json!({"bytes": 3})).parse::<FsReadResult>().unwrap_err();
    assert!(wrong.contains("host call 1"), "{}", wrong);
}

#[test]
fn done_and_error_frames_serialise_with_their_tag() {
    let done = OutputFrame::Done { output: "{\"words\":2}".into() };
    assert_eq!(done.to_vec().unwrap(), br#"{"type":"done","output":"{\"words\":2}"}"#.to_vec());
    let error = OutputFrame::Error { error: "description".into() };
    assert_eq!(error.to_vec().unwrap(), br#"{"type":"error","error":"description"}"#.to_vec());
}
