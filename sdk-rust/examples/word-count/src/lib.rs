//! Seed 004's example: read one workspace file with `fs.read` and answer `{"words":N}`.

use harness_wasm_sdk::results::FsReadResult;
use harness_wasm_sdk::{export_plugin, host_read, json, HostResponse, Plugin, StepOutput, ToolRequest};

#[derive(Default)]
pub struct WordCount;

impl Plugin for WordCount {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        match request.arguments["path"].as_str() {
            Some(path) if !path.is_empty() => host_read(1, path),
            _ => StepOutput::error("count_words needs a non-empty \"path\" argument"),
        }
    }

    fn resume(&mut self, response: HostResponse) -> StepOutput {
        match response.parse::<FsReadResult>() {
            Ok(file) => StepOutput::done_json(&json!({ "words": file.text.split_whitespace().count() })),
            Err(error) => StepOutput::error(error),
        }
    }
}

export_plugin!(crate::WordCount);

#[cfg(test)]
mod tests {
    use super::WordCount;
    use harness_wasm_sdk::testing::{Driver, MemoryHost};
    use harness_wasm_sdk::{json, HostOp, OutputFrame};

    #[test]
    fn counts_unicode_whitespace_separated_words_of_the_file() {
        let mut host = MemoryHost::new().with_file("notes.txt", "hello world\n\tgrüße  Ünïcode\u{3000}词");
        let output = Driver::<WordCount>::new().run("count_words", json!({"path": "notes.txt"}), &mut host);
        assert_eq!(output, OutputFrame::Done { output: String::from("{\"words\":5}") });
        assert_eq!(host.calls.len(), 1);
        assert_eq!(host.calls[0].op, HostOp::FsRead { path: String::from("notes.txt") });
    }

    #[test]
    fn reports_the_host_error_when_the_file_is_missing() {
        let mut host = MemoryHost::new();
        let output = Driver::<WordCount>::new().run("count_words", json!({"path": "gone.txt"}), &mut host);
        match output {
            OutputFrame::Error { error } => assert!(error.contains("E_FS_NOT_FOUND"), "{}", error),
            other => panic!("expected an error, got {:?}", other),
        }
    }

    #[test]
    fn refuses_a_missing_path_without_calling_the_host() {
        let mut host = MemoryHost::new();
        let output = Driver::<WordCount>::new().run("count_words", json!({}), &mut host);
        assert!(matches!(output, OutputFrame::Error { .. }));
        assert!(host.calls.is_empty());
    }
}
