//! Limits of seed 004 ("ABI 与执行限制", "Host 操作"). The host enforces them; the SDK checks the ones it can
//! see so that a plugin author gets a clear message instead of a terminated worker.

/// `harness_abi_version()` returns this.
pub const ABI_VERSION: i32 = 1;
/// A protocol frame, either direction, is at most 16 MiB of UTF-8 JSON.
pub const MAX_FRAME_BYTES: usize = 16 * 1024 * 1024;
/// The final `done` output or `error` text is at most 1 MiB.
pub const MAX_OUTPUT_BYTES: usize = 1024 * 1024;
/// Host call ids run 1, 2, 3, … with no gap; an invocation makes at most 128 calls.
pub const MAX_HOST_CALLS: u32 = 128;
/// Declared maximum of the module's single memory.
pub const MAX_MEMORY_BYTES: usize = 64 * 1024 * 1024;
/// Default execution budget of one invocation (approval waits pause it).
pub const DEFAULT_BUDGET_MS: u32 = 15_000;
/// `fs.read` / `fs.write`: one file is at most 8 MiB of strict UTF-8.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;
/// `fs.list` returns at most 1000 entries.
pub const MAX_LIST_ENTRIES: usize = 1000;
