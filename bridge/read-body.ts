// Request bodies are counted as they arrive: the moment the count passes the cap the request is refused (413)
// and the socket is not read further, so a hostile client costs at most one cap of memory. Each route has its
// own cap: the unauthenticated /v1/pair reads at most 4 KiB (see limits.ts), everything else 48 MiB.
//
// Memory: a body with a Content-Length is copied into one buffer of exactly that size as it arrives (the 64 KiB
// socket chunks are dropped at once), so reading costs 1x the body rather than chunks + their concatenation.
import type { IncomingMessage } from 'node:http';
import { BridgeError } from './errors';
import { nestsDeeperThan } from './json-depth';
import { MAX_JSON_DEPTH } from './limits';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    // Known length: one exact buffer. Chunked: the chunks, joined once at the end.
    const whole = Number.isInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
    let parts: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: BridgeError) => {
      done = true;
      req.off('data', onData);
      if (error) {
        parts = [];
        req.pause();
        reject(error);
      }
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.byteLength > (whole ? whole.byteLength : maxBytes)) return finish(tooLarge(maxBytes));
      if (whole) chunk.copy(whole, size);
      else parts.push(chunk);
      size += chunk.byteLength;
    };
    req.on('data', onData);
    req.on('end', () => {
      if (done) return;
      finish();
      if (whole) return resolve(size === whole.byteLength ? whole : whole.subarray(0, size));
      const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
      parts = [];
      resolve(body);
    });
    req.on('error', (error) => {
      if (done) return;
      finish(new BridgeError('E_REQUEST_ABORTED', `The request body could not be read (${error.message}).`));
    });
  });
}

const tooLarge = (maxBytes: number) =>
  new BridgeError('E_BODY_TOO_LARGE', `The request body is larger than ${maxBytes} bytes. Send less data.`, { limit: maxBytes });

/** The body as text, once its nesting is known to fit a worker frame. Only the text outlives this call. */
function checkedText(body: Buffer): string {
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new BridgeError('E_BODY_TOO_DEEP', `The request body nests JSON more than ${MAX_JSON_DEPTH} levels deep, deeper than a worker frame may. Send flatter data.`, { limit: MAX_JSON_DEPTH });
  }
  return body.toString('utf8');
}

/** Parses a JSON object body; refuses nesting deeper than the worker frames allow before building any of it. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const value = parseJson(checkedText(await readBody(req, maxBytes)));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BridgeError('E_BODY_INVALID', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError('E_BODY_INVALID', 'The request body is not valid JSON. Send a JSON object.');
  }
}
