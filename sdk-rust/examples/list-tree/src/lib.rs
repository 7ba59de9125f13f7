//! Several host calls in one invocation: `fs.list` the folder, then each subfolder, breadth first, down to
//! `max_depth` levels and within the 128-call budget of seed 004. The answer is an indented text tree.

use std::collections::VecDeque;

use harness_wasm_sdk::limits::MAX_HOST_CALLS;
use harness_wasm_sdk::results::{DirEntry, FsListResult};
use harness_wasm_sdk::{export_plugin, host_list, HostResponse, Plugin, StepOutput, ToolRequest};

const DEFAULT_DEPTH: u64 = 3;
const MAX_DEPTH: u64 = 8;
/// Entries shown at most; keeps the answer small for the model and far below the 1 MiB output limit.
const MAX_SHOWN: usize = 2000;

#[derive(Default)]
pub struct ListTree {
    root: String,
    max_depth: usize,
    /// The folder whose listing is awaited, with its depth (the root is depth 1).
    current: Option<(String, usize)>,
    /// Folders still to list, breadth first.
    queue: VecDeque<(String, usize)>,
    /// Every entry seen, with its depth.
    entries: Vec<(DirEntry, usize)>,
    calls: u32,
    truncated: bool,
}

impl Plugin for ListTree {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        let args = &request.arguments;
        let root = match &args["path"] {
            harness_wasm_sdk::Value::Null => "",
            value => match value.as_str() {
                Some(path) => path,
                None => return StepOutput::error("list_tree: \"path\" must be a string"),
            },
        };
        let depth = match &args["max_depth"] {
            harness_wasm_sdk::Value::Null => DEFAULT_DEPTH,
            value => match value.as_u64() {
                Some(depth) if (1..=MAX_DEPTH).contains(&depth) => depth,
                _ => return StepOutput::error("list_tree: \"max_depth\" must be an integer from 1 to 8"),
            },
        };
        self.root = String::from(root.trim_end_matches('/'));
        self.max_depth = depth as usize;
        self.list(self.root.clone(), 1)
    }

    fn resume(&mut self, response: HostResponse) -> StepOutput {
        let (dir, depth) = match self.current.take() {
            Some(next) => next,
            None => return StepOutput::error("list_tree received a host response it did not ask for"),
        };
        let listing = match response.parse::<FsListResult>() {
            Ok(listing) => listing,
            // The folder asked for by the model must exist; a subfolder that vanished meanwhile is skipped.
            Err(error) if depth == 1 => return StepOutput::error(error),
            Err(_) => FsListResult { entries: Vec::new() },
        };
        for entry in listing.entries {
            if self.entries.len() >= MAX_SHOWN {
                self.truncated = true;
                break;
            }
            if entry.directory && depth < self.max_depth {
                self.queue.push_back((child_path(&dir, &entry.path), depth + 1));
            }
            self.entries.push((entry, depth));
        }
        if self.queue.is_empty() {
            return StepOutput::done(self.render());
        }
        if self.calls >= MAX_HOST_CALLS || self.truncated {
            self.truncated = true;
            return StepOutput::done(self.render());
        }
        match self.queue.pop_front() {
            Some((next, next_depth)) => self.list(next, next_depth),
            None => StepOutput::done(self.render()),
        }
    }
}

impl ListTree {
    fn list(&mut self, dir: String, depth: usize) -> StepOutput {
        self.calls += 1;
        self.current = Some((dir.clone(), depth));
        host_list(self.calls, dir)
    }

    /// Entries sorted segment by segment so that children follow their folder, indented by depth.
    fn render(&mut self) -> String {
        self.entries.sort_by(|a, b| a.0.path.split('/').cmp(b.0.path.split('/')));
        let (mut folders, mut files) = (0, 0);
        let mut out = String::new();
        out.push_str(if self.root.is_empty() { "." } else { &self.root });
        out.push('\n');
        for (entry, depth) in &self.entries {
            let name = entry.path.rsplit('/').next().unwrap_or(&entry.path);
            for _ in 0..*depth {
                out.push_str("  ");
            }
            if entry.directory {
                folders += 1;
                out.push_str(name);
                out.push_str("/\n");
            } else {
                files += 1;
                out.push_str(&format!("{} ({} bytes)\n", name, entry.size));
            }
        }
        out.push_str(&format!("{} folders, {} files", folders, files));
        if self.truncated {
            out.push_str(" (truncated: the tree is larger than this listing)");
        }
        out
    }
}

/// Entry paths are workspace-relative; a bare name (a host that answers relative to the folder) is joined.
fn child_path(dir: &str, path: &str) -> String {
    if dir.is_empty() || path.starts_with(&format!("{}/", dir)) {
        String::from(path)
    } else {
        format!("{}/{}", dir, path)
    }
}

export_plugin!(crate::ListTree);

#[cfg(test)]
mod tests {
    use super::ListTree;
    use harness_wasm_sdk::testing::{Driver, MemoryHost};
    use harness_wasm_sdk::{json, HostOp, OutputFrame};

    fn workspace() -> MemoryHost {
        MemoryHost::new()
            .with_file("README.md", "hello")
            .with_file("src/main.rs", "fn main() {}")
            .with_file("src/util/strings.rs", "")
            .with_file("src/util/deep/deeper/x.txt", "x")
            .with_file("docs/guide.md", "guide")
    }

    #[test]
    fn lists_each_folder_with_its_own_host_call_and_renders_a_tree() {
        let mut host = workspace();
        let output = Driver::<ListTree>::new().run("list_tree", json!({"max_depth": 3}), &mut host);
        let expected = ".\n  README.md (5 bytes)\n  docs/\n    guide.md (5 bytes)\n  src/\n    main.rs (12 bytes)\n    util/\n      deep/\n      strings.rs (0 bytes)\n4 folders, 4 files";
        assert_eq!(output, OutputFrame::Done { output: expected.into() });
        let listed: Vec<String> = host
            .calls
            .iter()
            .map(|c| match &c.op {
                HostOp::FsList { path } => path.clone(),
                other => panic!("unexpected {:?}", other),
            })
            .collect();
        assert_eq!(listed, ["", "docs", "src", "src/util"]);
        let ids: Vec<u32> = host.calls.iter().map(|c| c.id).collect();
        assert_eq!(ids, [1, 2, 3, 4]);
    }

    #[test]
    fn depth_one_lists_only_the_given_folder() {
        let mut host = workspace();
        let output = Driver::<ListTree>::new().run("list_tree", json!({"path": "src", "max_depth": 1}), &mut host);
        let expected = "src\n  main.rs (12 bytes)\n  util/\n1 folders, 1 files";
        assert_eq!(output, OutputFrame::Done { output: expected.into() });
        assert_eq!(host.calls.len(), 1);
    }

    #[test]
    fn stops_at_the_host_call_budget_and_says_it_truncated() {
        let mut host = MemoryHost::new();
        for i in 0..200 {
            host = host.with_file(&format!("d{:03}/f.txt", i), "x");
        }
        let output = Driver::<ListTree>::new().run("list_tree", json!({"max_depth": 2}), &mut host);
        assert_eq!(host.calls.len(), 128);
        assert!(
            matches!(output, OutputFrame::Done { output } if output.ends_with("(truncated: the tree is larger than this listing)"))
        );
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let output = Driver::<ListTree>::new().run("list_tree", json!({"path": "nope"}), &mut workspace());
        assert!(matches!(output, OutputFrame::Error { error } if error.contains("E_FS_NOT_FOUND")));
    }
}
