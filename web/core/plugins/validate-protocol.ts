// The package-validation Worker's protocol (validate-worker.ts ↔ validate-off-thread.ts): one request, one reply.
// Its own module so the worker bundle does not pull in the client, which names the worker's URL.
import type { ErrorData, ValidatedPackage } from '../../../plugin-host';

export interface ValidateRequest {
  /** The package file; transferred, so the page keeps no copy. */
  bytes: Uint8Array;
}

export type ValidateReply = { ok: true; pkg: ValidatedPackage } | { ok: false; error: ErrorData };

/** Code of every failure of the worker itself (crash, unloadable script, unexpected exception, deadline). */
export const VALIDATE_WORKER_CODE = 'E_PLUGIN_VALIDATE_WORKER';

export const workerFailure = (detail: string): string =>
  `The package could not be checked: the validation worker failed (${detail.slice(0, 200)}). Try the import again; if it keeps failing, reload the app.`;
