// The Node backend's hot calls over node:fs's callback API, one promise per call. fs/promises pays for a
// FileHandle object, a promise per step and a GC-tracked close; over the 10,000 small files of the search bench
// (32 reads in flight, realpath + open + fstat + read + close each) that was 1.6–1.9 s against 0.74–0.82 s for the
// same system calls through callbacks (measured 2026-12-02 on the 2-core machine under load). Node-only.
import {
  close,
  closeSync,
  constants as fsc,
  fstat,
  fstatSync,
  lstat,
  open,
  openSync,
  read,
  readSync,
  realpath,
  type Stats,
} from 'node:fs';
import { fsError } from './fs-common';

const O_NOFOLLOW = fsc.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fsc.O_NONBLOCK ?? 0;

/** realpath(3) of `path` (the same native call fs/promises makes). */
export function realpathOf(path: string): Promise<string> {
  return new Promise((resolve, reject) =>
    realpath.native(path, (error, real) => (error ? reject(error) : resolve(real))),
  );
}

/** lstat(2) of `path`: what a listing asks of each entry. */
export function lstatOf(path: string): Promise<Stats> {
  return new Promise((resolve, reject) => lstat(path, (error, info) => (error ? reject(error) : resolve(info))));
}

/**
 * The bytes of the regular file at `real` (already resolved and checked inside the workspace), refused with
 * E_FS_NOT_FILE / E_FS_IO / E_FS_TOO_LARGE naming `path`. Other failures reject with the Node error, for the caller
 * to map. Never returns a truncated file.
 */
export function readRegularFile(real: string, maxBytes: number, path: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer; fstat then refuses
    // anything that is not a regular file before a byte is read.
    open(real, fsc.O_RDONLY | O_NOFOLLOW | O_NONBLOCK, (openError, fd) => {
      if (openError) return reject(openError);
      const finish = (error: unknown, bytes?: Uint8Array) =>
        close(fd, (closeError) => {
          if (error || closeError) reject(error ?? closeError);
          else resolve(bytes!);
        });
      fstat(fd, (statError, info) => {
        if (statError) return finish(statError);
        if (info.isDirectory()) return finish(fsError('E_FS_NOT_FILE', path));
        if (!info.isFile()) return finish(fsError('E_FS_IO', path, { reason: 'not a regular file' }));
        if (info.size > maxBytes) return finish(fsError('E_FS_TOO_LARGE', path, { size: info.size, maxBytes }));
        // One byte past the limit, so a file that grew past it after fstat is still refused, never truncated. Below
        // the limit, the bytes fstat counted are the file as it was opened: once they are in, the usual file is
        // done after one read instead of a second one that returns 0.
        const buffer = new Uint8Array(Math.min(info.size, maxBytes) + 1);
        let total = 0;
        const step = () =>
          read(fd, buffer, total, buffer.length - total, null, (readError, bytesRead) => {
            if (readError) return finish(readError);
            total += bytesRead;
            const done = bytesRead === 0 || total === buffer.length || (total >= info.size && info.size < maxBytes);
            if (!done) return step();
            if (total > maxBytes) return finish(fsError('E_FS_TOO_LARGE', path, { size: total, maxBytes }));
            finish(null, buffer.slice(0, total));
          });
        step();
      });
    });
  });
}

/**
 * Synchronous file-system calls in bounded slices, for the CLI (`blockingCalls` of the Node backend). The same
 * calls made synchronously skip libuv's thread pool, where each one is a hand-off between threads: the search
 * bench's 10,000 reads took 100–180 ms this way against 0.6–0.8 s through the pool. They block the event loop, so
 * `turn()` lets the loop run (timers, signals, a streaming response) whenever SLICE_MS of synchronous work has
 * passed since it last did, and only small files are read this way (SYNC_MAX_BYTES; larger ones go async).
 */
export const SLICE_MS = 4;
// 1 MiB: such a read holds the loop 0.16–0.53 ms (page cache, measured 2026-12-02), well inside a slice; through the
// pool the same read took 1.4 ms beside a write (five hand-offs between threads).
export const SYNC_MAX_BYTES = 1024 * 1024;

export function makeSlices(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let started = performance.now();
  let yielding: Promise<void> | undefined;
  return () => {
    if (yielding) return yielding;
    if (performance.now() - started < sliceMs) return undefined;
    yielding = new Promise<void>((resolve) =>
      setImmediate(() => {
        started = performance.now();
        yielding = undefined;
        resolve();
      }),
    );
    return yielding;
  };
}

/**
 * readRegularFile made synchronously, or `null` when the file is over SYNC_MAX_BYTES (the caller reads it
 * asynchronously, so one call never blocks for long). Same refusals; other failures throw the Node error.
 */
export function readRegularFileSync(real: string, maxBytes: number, path: string): Uint8Array | null {
  const fd = openSync(real, fsc.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw fsError('E_FS_NOT_FILE', path);
    if (!info.isFile()) throw fsError('E_FS_IO', path, { reason: 'not a regular file' });
    if (info.size > maxBytes) throw fsError('E_FS_TOO_LARGE', path, { size: info.size, maxBytes });
    if (info.size > SYNC_MAX_BYTES) return null;
    // As readRegularFile: one byte past what fstat counted, so a file that grew past the limit is still refused.
    const buffer = new Uint8Array(Math.min(info.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buffer, total, buffer.length - total, null);
      total += n;
      if (n === 0 || total === buffer.length || (total >= info.size && info.size < maxBytes)) break;
      // Grew past the sync size since fstat: finish asynchronously (rare; a file being written).
      if (total > SYNC_MAX_BYTES) return null;
    }
    if (total > maxBytes) throw fsError('E_FS_TOO_LARGE', path, { size: total, maxBytes });
    return buffer.slice(0, total);
  } finally {
    closeSync(fd);
  }
}
