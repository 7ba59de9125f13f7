//! Notes kept in the plugin's private KV (`"storage": true`): `add_note` reads the list with `kv.get` and stores
//! it back with `kv.put`, `list_notes` only reads it, `clear_notes` removes it with `kv.delete`.

use harness_wasm_sdk::results::KvGetResult;
use harness_wasm_sdk::{
    export_plugin, host_kv_delete, host_kv_get, host_kv_put, json, HostResponse, Plugin, StepOutput, ToolRequest, Value,
};

/// The one KV key; its value is `{"notes": ["…", …]}`.
const KEY: &str = "notes";
/// Keeps the stored list, and so the `list_notes` output, far below the 1 MiB output limit.
const MAX_NOTES: usize = 200;

#[derive(Default)]
pub enum Notes {
    #[default]
    Idle,
    /// `add_note`: waiting for `kv.get` (1), then for `kv.put` (2).
    Adding {
        text: String,
        count: usize,
    },
    Listing,
    Clearing,
}

impl Plugin for Notes {
    fn start(&mut self, request: ToolRequest) -> StepOutput {
        match request.name.as_str() {
            "add_note" => match request.arguments["text"].as_str() {
                Some(text) if !text.is_empty() => {
                    *self = Notes::Adding { text: String::from(text), count: 0 };
                    host_kv_get(1, KEY)
                }
                _ => StepOutput::error("add_note needs a non-empty \"text\" argument"),
            },
            "list_notes" => {
                *self = Notes::Listing;
                host_kv_get(1, KEY)
            }
            "clear_notes" => {
                *self = Notes::Clearing;
                host_kv_delete(1, KEY)
            }
            other => StepOutput::error(format!("notes has no tool named {:?}", other)),
        }
    }

    fn resume(&mut self, response: HostResponse) -> StepOutput {
        let id = response.id;
        match self {
            Notes::Adding { text, count } if id == 1 => {
                let mut notes = match stored_notes(response) {
                    Ok(notes) => notes,
                    Err(error) => return StepOutput::error(error),
                };
                if notes.len() >= MAX_NOTES {
                    return StepOutput::error(format!("there are already {} notes; clear some first", MAX_NOTES));
                }
                notes.push(Value::String(std::mem::take(text)));
                *count = notes.len();
                host_kv_put(2, KEY, json!({ "notes": notes }))
            }
            Notes::Adding { count, .. } => match response.into_result() {
                Ok(_) => StepOutput::done_json(&json!({ "saved": true, "count": count })),
                Err(error) => StepOutput::error(error),
            },
            Notes::Listing => match stored_notes(response) {
                Ok(notes) => StepOutput::done_json(&json!({ "notes": notes })),
                Err(error) => StepOutput::error(error),
            },
            Notes::Clearing => match response.into_result() {
                Ok(_) => StepOutput::done_json(&json!({ "cleared": true })),
                Err(error) => StepOutput::error(error),
            },
            Notes::Idle => StepOutput::error("notes received a host response it did not ask for"),
        }
    }
}

/// The stored list, empty when the key holds nothing yet.
fn stored_notes(response: HostResponse) -> Result<Vec<Value>, String> {
    let stored = response.parse::<KvGetResult>()?;
    match stored.value {
        None => Ok(Vec::new()),
        Some(Value::Object(mut object)) => match object.remove("notes") {
            Some(Value::Array(notes)) => Ok(notes),
            _ => Err(String::from("the stored notes are damaged; run clear_notes to start again")),
        },
        Some(_) => Err(String::from("the stored notes are damaged; run clear_notes to start again")),
    }
}

export_plugin!(crate::Notes);

#[cfg(test)]
mod tests {
    use super::Notes;
    use harness_wasm_sdk::testing::{Driver, MemoryHost};
    use harness_wasm_sdk::{json, HostOp, OutputFrame};

    fn done(output: OutputFrame) -> harness_wasm_sdk::Value {
        match output {
            OutputFrame::Done { output } => harness_wasm_sdk::serde_json::from_str(&output).unwrap(),
            other => panic!("expected done, got {:?}", other),
        }
    }

    #[test]
    fn adds_lists_and_clears_notes_in_kv_across_invocations() {
        let mut host = MemoryHost::new();
        let driver = Driver::<Notes>::new();
        assert_eq!(
            done(driver.run("add_note", json!({"text": "buy milk"}), &mut host)),
            json!({"saved": true, "count": 1})
        );
        assert_eq!(
            done(driver.run("add_note", json!({"text": "call Ana"}), &mut host)),
            json!({"saved": true, "count": 2})
        );
        assert_eq!(done(driver.run("list_notes", json!({}), &mut host)), json!({"notes": ["buy milk", "call Ana"]}));
        assert_eq!(host.kv["notes"], json!({"notes": ["buy milk", "call Ana"]}));
        assert_eq!(done(driver.run("clear_notes", json!({}), &mut host)), json!({"cleared": true}));
        assert!(host.kv.is_empty());
        assert_eq!(done(driver.run("list_notes", json!({}), &mut host)), json!({"notes": []}));
        let ops: Vec<&str> = host.calls.iter().map(|c| c.op.name()).collect();
        assert_eq!(ops, ["kv.get", "kv.put", "kv.get", "kv.put", "kv.get", "kv.delete", "kv.get"]);
        assert!(matches!(&host.calls[1].op, HostOp::KvPut { key, .. } if key == "notes"));
    }

    #[test]
    fn refuses_damaged_storage_instead_of_overwriting_it() {
        let mut host = MemoryHost::new();
        host.kv.insert("notes".into(), json!("not a list"));
        let output = Driver::<Notes>::new().run("add_note", json!({"text": "x"}), &mut host);
        assert!(matches!(output, OutputFrame::Error { error } if error.contains("clear_notes")));
        assert_eq!(host.kv["notes"], json!("not a list"));
    }

    #[test]
    fn unknown_tool_name_is_an_error() {
        let output = Driver::<Notes>::new().run("delete_everything", json!({}), &mut MemoryHost::new());
        assert!(matches!(output, OutputFrame::Error { error } if error.contains("delete_everything")));
    }
}
