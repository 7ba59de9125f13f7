// The messages between the page and the zip Worker (zip-worker.ts). The page reads the files and posts them, their
// buffers transferred; the Worker deflates and posts the archive back in ~1 MiB chunks, also transferred. Both
// directions are acknowledged, so neither side can pile up more than a bounded amount in the other.
import type { ErrorData } from '../../../plugin-host/errors';

export type ZipRequest =
  | { type: 'file'; id: number; name: string; level: number; bytes: Uint8Array<ArrayBuffer> }
  | { type: 'folder'; name: string }
  | { type: 'close' }
  /** One archive chunk was written to the sink; the Worker may send another. */
  | { type: 'written' };

export type ZipReply =
  | { type: 'added'; id: number }
  | { type: 'chunk'; bytes: Uint8Array<ArrayBuffer> }
  | { type: 'closed' }
  | { type: 'failed'; error: ErrorData };

/** Archive chunks the Worker may have posted but the page not yet written: 2 × ~1 MiB. */
export const CHUNKS_IN_FLIGHT = 2;

/** The Worker failed to start, crashed, or sent what could not be read. */
export const ZIP_WORKER_CODE = 'E_ZIP_WORKER';
/** zip.js failed inside the Worker. */
export const ZIP_WRITE_CODE = 'E_ZIP_WRITE';

export const zipWorkerFailure = (detail: string) =>
  `The zip could not be made: its worker ${detail.replace(/\.$/, '')}. Nothing was saved. Reload the page and download again.`;
export const zipWriteFailure = (detail: string) =>
  `The archive could not be written (${detail.replace(/\.$/, '')}). Nothing was saved. Download again; if it fails again, download a smaller folder.`;

/** The part of a port (a Worker's global scope, a MessagePort) that either side uses. */
export interface ZipPort<In, Out> {
  postMessage(message: Out, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<In>) => void): void;
}

/** The part of a Worker the client uses; a real module Worker, or a MessagePort-backed double in Node tests. */
export interface ZipWorker extends ZipPort<ZipReply, ZipRequest> {
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (e: MessageEvent<ZipReply>) => void): void;
  removeEventListener(type: 'message' | 'error' | 'messageerror', listener: (e: MessageEvent<ZipReply>) => void): void;
  terminate(): void;
}
