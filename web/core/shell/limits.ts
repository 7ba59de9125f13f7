// Every limit of the shell tools in one place (issue 31); CONTEXT.md says why each has its value. Tests pass smaller
// values through the options; the defaults never change silently.

/** `shell`: seconds a command may run when `timeout_s` is not given, and the most `timeout_s` may ask for. */
export const SHELL_DEFAULT_TIMEOUT_S = 120;
export const SHELL_MAX_TIMEOUT_S = 600;
/** `shell`: characters of a command (Linux refuses one argument over 128 KiB; commands are one argument of bash). */
export const SHELL_COMMAND_MAX_CHARS = 32 * 1024;

/**
 * Output held in memory for one command: the first HEAD bytes and the last TAIL bytes; what lies between is counted
 * and dropped. Together under the content store's 8 MiB per result (SESSION_RESULT_STORE_LIMITS), so the session
 * keeps every byte it holds and the model gets a bounded view of it (seed 002).
 */
export const SHELL_OUTPUT_HEAD_BYTES = 4 * 1024 * 1024;
export const SHELL_OUTPUT_TAIL_BYTES = 2 * 1024 * 1024;
/** A long result names where its last this-many bytes start, so the model can read the end with read_result. */
export const SHELL_TAIL_HINT_BYTES = 2048;

/** Stopping: SIGTERM to the whole process group, then SIGKILL after this grace. */
export const SHELL_KILL_GRACE_MS = 1000;
/**
 * After the command's own process exits, how long its output pipes may stay open (held by something it left running)
 * before the rest of its process group is killed: a foreground command ends with everything it started.
 */
export const SHELL_DRAIN_MS = 100;

/** Background processes running at once (one run of i). */
export const SHELL_BACKGROUND_MAX = 8;
/** Finished background processes remembered for a last `shell_output` (the oldest is forgotten first). */
export const SHELL_BACKGROUND_KEEP_FINISHED = 16;
/** Unread output kept per background process; older unread output is dropped and counted. */
export const SHELL_BACKGROUND_UNREAD_BYTES = 1024 * 1024;
/** `shell_output {wait_s}`: the longest a read waits for new output or the end. */
export const SHELL_OUTPUT_MAX_WAIT_S = 60;

/** Live output (`i --json` `tool_output` events): at most this many bytes per event, and this often. */
export const SHELL_LIVE_EVENT_BYTES = 4096;
export const SHELL_LIVE_INTERVAL_MS = 100;
/** Live output per command; past it one event says the rest is in the result only. */
export const SHELL_LIVE_MAX_BYTES = 256 * 1024;

/** The sandbox probe (`bwrap … true`) may take this long before the sandbox counts as unavailable. */
export const SANDBOX_PROBE_TIMEOUT_MS = 5000;
