// The Worker side of the zip protocol (zip-worker-protocol.ts), apart from the Worker entry so a Node test can
// run it over a MessageChannel. Files are added in the order they arrive; the first failure is reported once and
// everything after it ignored (the page terminates the Worker on failure or cancel).
import { toErrorData } from '../../../plugin-host/errors';
import { openZipAssembler } from './zip-assembler';
import {
  CHUNKS_IN_FLIGHT,
  ZIP_WRITE_CODE,
  zipWriteFailure,
  type ZipPort,
  type ZipReply,
  type ZipRequest,
} from './zip-worker-protocol';

export function serveZipWorker(port: ZipPort<ZipRequest, ZipReply>): void {
  let unwritten = 0;
  let wake: (() => void) | undefined;
  let failed = false;
  const open = () =>
    openZipAssembler(async (chunk) => {
      // Backpressure from the sink: a slow file waits here instead of the archive piling up on the page.
      while (unwritten >= CHUNKS_IN_FLIGHT) await new Promise<void>((resolve) => (wake = resolve));
      unwritten++;
      port.postMessage({ type: 'chunk', bytes: chunk }, [chunk.buffer]);
    });
  let zip = open();
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    const data = toErrorData(error, ZIP_WRITE_CODE);
    if (data.code === ZIP_WRITE_CODE) data.message = zipWriteFailure(data.message);
    port.postMessage({ type: 'failed', error: data }, []);
  };
  port.addEventListener('message', (e) => {
    const request = e.data;
    switch (request.type) {
      case 'file':
        zip
          .add(request.name, request.bytes, request.level)
          .then(() => port.postMessage({ type: 'added', id: request.id }, []), fail);
        break;
      case 'folder':
        zip.folder(request.name).catch(fail);
        break;
      case 'close': {
        // The next archive starts fresh in the same Worker, whose zip.js code is then already compiled.
        const closing = zip;
        zip = open();
        closing.close().then(() => port.postMessage({ type: 'closed' }, []), fail);
        break;
      }
      case 'written':
        unwritten--;
        wake?.();
        wake = undefined;
        break;
    }
  });
}
