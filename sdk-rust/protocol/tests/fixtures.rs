//! The shared fixtures in `sdk-rust/fixtures/protocol/` are the contract with the TypeScript host: every valid
//! frame must parse in its direction and serialise back to the same JSON; every `invalid/` frame must be refused.

use std::fs;
use std::path::{Path, PathBuf};

use harness_wasm_protocol::{InputFrame, OutputFrame, Value};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/protocol")
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |x| x == "json"))
        .collect();
    files.sort();
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn every_valid_frame_round_trips_in_its_direction_only() {
    let files = json_files(&fixture_dir());
    assert!(files.len() >= 15, "expected the full fixture set, found {}", files.len());
    for path in files {
        let bytes = fs::read(&path).unwrap();
        let original: Value = serde_json::from_slice(&bytes).unwrap();
        let file = name(&path);
        let reserialised = if file.starts_with("start.") || file.starts_with("resume.") {
            let frame = InputFrame::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {}", file, e));
            assert!(OutputFrame::from_slice(&bytes).is_err(), "{} parsed as an output frame", file);
            serde_json::to_value(&frame).unwrap()
        } else {
            let frame = OutputFrame::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {}", file, e));
            assert!(InputFrame::from_slice(&bytes).is_err(), "{} parsed as an input frame", file);
            serde_json::to_value(&frame).unwrap()
        };
        assert_eq!(reserialised, original, "{} does not round-trip", file);
    }
}

#[test]
fn every_invalid_frame_is_refused_in_both_directions() {
    let files = json_files(&fixture_dir().join("invalid"));
    assert!(files.len() >= 20, "expected the full invalid set, found {}", files.len());
    for path in files {
        let bytes = fs::read(&path).unwrap();
        let file = name(&path);
        assert!(serde_json::from_slice::<Value>(&bytes).is_ok(), "{} must be well-formed JSON", file);
        if let Ok(frame) = InputFrame::from_slice(&bytes) {
            panic!("{} was accepted as {:?}", file, frame);
        }
        if let Ok(frame) = OutputFrame::from_slice(&bytes) {
            panic!("{} was accepted as {:?}", file, frame);
        }
    }
}

#[test]
fn fixture_readme_describes_every_file() {
    let readme = fs::read_to_string(fixture_dir().join("../README.md")).unwrap();
    let dir = fixture_dir();
    for path in json_files(&dir).into_iter().chain(json_files(&dir.join("invalid"))) {
        let file = name(&path);
        assert!(readme.contains(&format!("`{}`", file)), "fixtures/README.md does not describe {}", file);
    }
}
