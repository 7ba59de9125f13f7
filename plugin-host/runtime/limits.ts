// Limits of seed 004 (harness-wasm-v1), in one place so the driver, the mediator, the host operations and
// CONTEXT.md agree. Sizes are bytes of UTF-8.

const MiB = 1024 * 1024;

export const ABI_VERSION = 1;
/** Any frame crossing the ABI, in either direction. */
export const MAX_FRAME_BYTES = 16 * MiB;
/** The text of a final `done` output or plugin `error`. */
export const MAX_OUTPUT_BYTES = 1 * MiB;
/** Host calls per invocation; the 129th is a protocol violation. */
export const MAX_HOST_CALLS = 128;
/** Default budget per invocation: compile + instantiate + execution, paused while a person approves a write. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** fs.read / fs.write text. */
export const MAX_FILE_BYTES = 8 * MiB;
/** fs.list entries. */
export const MAX_LIST_ENTRIES = 1000;

/**
 * Private KV quota per (workspaceId, pluginId). Sized for IndexedDB in a browser profile: small enough that a
 * misbehaving plugin cannot fill the origin's storage, large enough for caches and settings.
 */
export const KV_QUOTA = {
  /** Key length, 1..256 bytes. */
  maxKeyBytes: 256,
  /** One value, serialised as JSON. */
  maxValueBytes: 256 * 1024,
  /** Sum of key bytes + value bytes across the scope. */
  maxTotalBytes: 4 * MiB,
  maxEntries: 4096,
} as const;
