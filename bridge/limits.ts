// Every number here comes from seed 000 (§2 workers, §3 registry, §9 web) or the bridge issue; tests pass
// smaller values through options, the defaults never change silently.

/** One NDJSON frame, newline included, in either direction (seed 000 §2). Also the HTTP body cap. */
export const MAX_FRAME_BYTES = 48 * 1024 * 1024;
/** Per worker call: serialisation, the blocking write and the wait for the answer (seed 000 §2). */
export const CALL_TIMEOUT_MS = 15_000;
/** Between SIGTERM and SIGKILL of an evicted worker's process group. */
export const KILL_GRACE_MS = 500;
/** Default cap on the stderr bytes kept per worker (`io_limit_bytes`); the rest is drained and dropped. */
export const DEFAULT_IO_LIMIT_BYTES = 1024 * 1024;
/** `io_limit_bytes` bounds, in bridge.json and --io-limit-bytes alike (the model config's, seed 000 §2, §4). */
export const MIN_IO_LIMIT_BYTES = 1024;
export const MAX_IO_LIMIT_BYTES = MAX_FRAME_BYTES;
/** Workspace registry (seed 000 §3). */
export const REGISTRY_MAX_ENTRIES = 10_000;
export const REGISTRY_MAX_READ_BYTES = 2 * 1024 * 1024;
/** web_fetch (seed 000 §9). */
export const WEB_MAX_BODY_BYTES = 1024 * 1024;
export const WEB_MAX_OUTPUT_CHARS = 50_000;
export const WEB_MAX_REQUESTS = 5;
export const WEB_TIMEOUT_MS = 8_000;
/** Pairing: one code per bridge start, single use. */
export const PAIRING_TTL_MS = 10 * 60_000;
export const PAIRING_MAX_ATTEMPTS = 5;
/** The port the browser app tries first. */
export const DEFAULT_PORT = 7331;
