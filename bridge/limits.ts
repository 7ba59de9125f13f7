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
/** web_fetch's limits (seed 000 §9) live with the fetch itself, in net/limits.ts. */
/** Pairing: one code per bridge start, single use. */
export const PAIRING_TTL_MS = 10 * 60_000;
export const PAIRING_MAX_ATTEMPTS = 5;
/** The port the browser app tries first. */
export const DEFAULT_PORT = 7331;
/**
 * Deepest JSON nesting a request body may have. Worker frames wrap it in at most 3 more levels (frame → data →
 * arguments), and 128 is serde_json's default recursion limit, the strictest parser a worker is likely to use (Python's
 * json allows ~1000, V8's JSON.stringify a few thousand before a RangeError). Real tool arguments and hook data
 * nest a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 120;

// Pre-authentication limits of the HTTP server. Any local process (of any user) and any web page can open
// connections to a loopback port; until a request shows a token it may cost the bridge only these bounds.
/** `/v1/pair` is the one endpoint read before authentication; its body is `{"code": "XXXX-XXXX"}` (~20 bytes). */
export const PAIR_MAX_BODY_BYTES = 4 * 1024;
/**
 * A connection must deliver a complete request head within this time from its first byte (or from connecting).
 * Loopback clients send a head in one packet; 10 s tolerates a machine under heavy load. Slowloris ends here.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * The whole request, body included, must arrive within this time. A 48 MiB body over loopback takes well under a
 * second; a minute leaves room for a starved client, and bounds a slow-body sender holding a connection.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Idle time between requests on a kept-alive connection (Node's default is 5 s; a paired app calls now and then). */
export const KEEP_ALIVE_MS = 30_000;
/**
 * Open connections per listener (127.0.0.1 and ::1 each). Browsers use at most 6 per host, headless `i` a few;
 * 128 keeps descriptors and per-socket buffers small. At the limit a new connection closes the oldest one that has
 * not yet shown a token (see connection-limit.ts), so idle sockets cannot lock the paired app out.
 */
export const MAX_CONNECTIONS = 128;
