// Stable codes of the plugin runtime. Two kinds are kept apart (seed 004):
// - ABORT codes (`E_RUN_*`): a protocol violation, a trap, a timeout or a cancel ends the invocation. `hplugin run`
//   prints them as `error E_RUN_<CODE>: message` and exits 1.
// - REFUSAL codes (`E_HOST_*`, plus the `E_PATH_*` / `E_FS_*` codes of WorkspaceFs): a refused host call is answered
//   to the plugin as `{ok:false, error:"<CODE>: <message>"}` and the invocation goes on.

export const AbortCode = {
  TIMEOUT: 'E_RUN_TIMEOUT',
  CANCELLED: 'E_RUN_CANCELLED',
  COMPILE: 'E_RUN_COMPILE',
  IMPORTS: 'E_RUN_IMPORTS',
  ABI_EXPORTS: 'E_RUN_ABI_EXPORTS',
  ABI_VERSION: 'E_RUN_ABI_VERSION',
  TRAP: 'E_RUN_TRAP',
  STACK_OVERFLOW: 'E_RUN_STACK_OVERFLOW',
  ALLOC: 'E_RUN_ALLOC',
  OUT_OF_BOUNDS: 'E_RUN_OUT_OF_BOUNDS',
  FRAME_TOO_LARGE: 'E_RUN_FRAME_TOO_LARGE',
  OUTPUT_TOO_LARGE: 'E_RUN_OUTPUT_TOO_LARGE',
  BAD_UTF8: 'E_RUN_BAD_UTF8',
  BAD_JSON: 'E_RUN_BAD_JSON',
  BAD_FRAME: 'E_RUN_BAD_FRAME',
  HOST_ID: 'E_RUN_HOST_ID',
  TOO_MANY_CALLS: 'E_RUN_TOO_MANY_CALLS',
  AFTER_DONE: 'E_RUN_AFTER_DONE',
  UNKNOWN_OP: 'E_RUN_UNKNOWN_OP',
  BAD_ARGS: 'E_RUN_BAD_ARGS',
  UNKNOWN_TOOL: 'E_RUN_UNKNOWN_TOOL',
  BAD_ARGUMENTS: 'E_RUN_BAD_ARGUMENTS',
  WORKER: 'E_RUN_WORKER',
  HOST: 'E_RUN_HOST',
} as const;
export type AbortCode = (typeof AbortCode)[keyof typeof AbortCode];

/** Not an abort: the plugin itself answered `{"type":"error"}`. `hplugin run` prints it with this code. */
export const PLUGIN_ERROR_CODE = 'E_RUN_PLUGIN_ERROR';

export const RefusalCode = {
  NO_WORKSPACE: 'E_HOST_NO_WORKSPACE',
  PERMISSION: 'E_HOST_PERMISSION',
  READ_ONLY: 'E_HOST_READ_ONLY',
  WRITE_DENIED: 'E_HOST_WRITE_DENIED',
  WRITE_CONFLICT: 'E_HOST_WRITE_CONFLICT',
  NO_STORAGE: 'E_HOST_NO_STORAGE',
  TOO_LARGE: 'E_HOST_TOO_LARGE',
  NOT_UTF8: 'E_HOST_NOT_UTF8',
  KV_KEY: 'E_HOST_KV_KEY',
  KV_QUOTA: 'E_HOST_KV_QUOTA',
  FAILED: 'E_HOST_FAILED',
} as const;
export type RefusalCode = (typeof RefusalCode)[keyof typeof RefusalCode];
