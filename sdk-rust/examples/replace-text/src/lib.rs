//! `fs.read`, then `fs.write` of the edited text: the shape of every read-modify-write plugin.
//! Needs `"workspace": "read-write"`; the person approves (or refuses) the write.

use harness_wasm_sdk::results::{FsReadResult, FsWriteResult};
use harness_wasm_sdk::{export_plugin, host_read, host_write, json, HostResponse, Plugin, StepOutput, ToolRequest};

#[derive(Default)]
pub struct ReplaceText {
    path: String,
    find: String,
    replace: String,
    replacements: usize,
}

impl Plugin for ReplaceText {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        let args = &request.arguments;
        match (args["path"].as_str(), args["find"].as_str(), args["replace"].as_str()) {
            (Some(path), Some(find), Some(replace)) if !path.is_empty() && !find.is_empty() => {
                self.path = String::from(path);
                self.find = String::from(find);
                self.replace = String::from(replace);
                host_read(1, path)
            }
            _ => StepOutput::error("replace_text needs \"path\" and \"find\" (non-empty) and \"replace\" strings"),
        }
    }

    fn resume(&mut self, response: HostResponse) -> StepOutput {
        if response.id == 1 {
            let file = match response.parse::<FsReadResult>() {
                Ok(file) => file,
                Err(error) => return StepOutput::error(error),
            };
            self.replacements = file.text.matches(self.find.as_str()).count();
            if self.replacements == 0 {
                return StepOutput::done_json(&json!({ "path": self.path, "replacements": 0, "written": false }));
            }
            let text = file.text.replace(self.find.as_str(), &self.replace);
            return host_write(2, self.path.as_str(), text);
        }
        match response.parse::<FsWriteResult>() {
            Ok(written) => StepOutput::done_json(&json!({
                "path": self.path,
                "replacements": self.replacements,
                "written": true,
                "bytes": written.bytes,
            })),
            Err(error) => StepOutput::error(format!("{} was not changed: {}", self.path, error)),
        }
    }
}

export_plugin!(crate::ReplaceText);

#[cfg(test)]
mod tests {
    use super::ReplaceText;
    use harness_wasm_sdk::testing::{Driver, MemoryHost};
    use harness_wasm_sdk::{json, OutputFrame};

    #[test]
    fn reads_then_writes_the_replaced_text() {
        let mut host = MemoryHost::new().with_file("a.txt", "cat sat on the cat mat");
        let args = json!({"path": "a.txt", "find": "cat", "replace": "dög"});
        let output = Driver::<ReplaceText>::new().run("replace_text", args, &mut host);
        let expected = json!({"path": "a.txt", "replacements": 2, "written": true, "bytes": 24}).to_string();
        assert_eq!(output, OutputFrame::Done { output: expected });
        assert_eq!(host.files["a.txt"], "dög sat on the dög mat");
        let ops: Vec<&str> = host.calls.iter().map(|c| c.op.name()).collect();
        assert_eq!(ops, ["fs.read", "fs.write"]);
    }

    #[test]
    fn does_not_write_when_nothing_matches() {
        let mut host = MemoryHost::new().with_file("a.txt", "nothing here");
        let args = json!({"path": "a.txt", "find": "cat", "replace": "dog"});
        let output = Driver::<ReplaceText>::new().run("replace_text", args, &mut host);
        assert!(matches!(output, OutputFrame::Done { output } if output.contains("\"written\":false")));
        assert_eq!(host.calls.len(), 1);
    }

    #[test]
    fn a_refused_write_is_an_error_that_says_the_file_is_unchanged() {
        let mut host = MemoryHost::new().with_file("a.txt", "cat");
        host.refuse_writes = true;
        let args = json!({"path": "a.txt", "find": "cat", "replace": "dog"});
        let output = Driver::<ReplaceText>::new().run("replace_text", args, &mut host);
        assert!(matches!(output, OutputFrame::Error { error } if error.contains("was not changed")));
        assert_eq!(host.files["a.txt"], "cat");
    }
}
