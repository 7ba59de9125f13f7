// Entry of the zip module Worker: zip.js and deflate off the page's thread, so they run on a second core while the
// page reads the next files (see zip-off-thread.ts and CONTEXT.md for the measurement).
import { serveZipWorker } from './zip-worker-serve';
import type { ZipPort, ZipReply, ZipRequest } from './zip-worker-protocol';

// tsconfig's lib is DOM (no WebWorker): the scope is described by the two members used.
serveZipWorker(globalThis as unknown as ZipPort<ZipRequest, ZipReply>);
