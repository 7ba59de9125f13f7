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
import { noteGarbage } from './reclaim';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    // Known length: one exact buffer. Chunked: the chunks, joined once at the end.
    let whole = Number.isInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
    let parts: Buffer[] = [];
    let size = 0;
    // Every listener goes once the body is handed over: `req` lives until the answer is sent, and a listener left
    // on it would keep `resolve`, hence the settled promise, hence the whole body alive with it.
    const settle = (error: BridgeError | undefined) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.on('error', ignore);
      if (error) {
        whole = undefined;
        parts = [];
        req.pause();
        return reject(error);
      }
      const body = whole
        ? size === whole.byteLength
          ? whole
          : whole.subarray(0, size)
        : parts.length === 1
          ? parts[0]!
          : Buffer.concat(parts, size);
      whole = undefined;
      parts = [];
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.byteLength > (whole ? whole.byteLength : maxBytes)) return settle(tooLarge(maxBytes));
      if (whole) chunk.copy(whole, size);
      else parts.push(chunk);
      size += chunk.byteLength;
    };
    const onEnd = () => settle(undefined);
    const onError = (error: Error) =>
      settle(new BridgeError('E_REQUEST_ABORTED', `The request body could not be read (${error.message}).`));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Errors after the body was handed over (a client that goes away) are the response's business, not the reader's. */
const ignore = () => undefined;

const tooLarge = (maxBytes: number) =>
  new BridgeError('E_BODY_TOO_LARGE', `The request body is larger than ${maxBytes} bytes. Send less data.`, {
    limit: maxBytes,
  });

/** The body as text, once its nesting is known to fit a worker frame. Only the text outlives this call. */
function checkedText(body: Buffer): string {
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new BridgeError(
      'E_BODY_TOO_DEEP',
      `The request body nests JSON more than ${MAX_JSON_DEPTH} levels deep, deeper than a worker frame may. Send flatter data.`,
      { limit: MAX_JSON_DEPTH },
    );
  }
  return body.toString('utf8');
}

/** Parses a JSON object body; refuses nesting deeper than the worker frames allow before building any of it. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const { value, bytes } = await parseBody(req, maxBytes);
  // The socket chunks, the body bytes and its text are garbage once parseBody has returned.
  noteGarbage(bytes);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BridgeError('E_BODY_INVALID', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

async function parseBody(req: IncomingMessage, maxBytes: number): Promise<{ value: unknown; bytes: number }> {
  const body = await readBody(req, maxBytes);
  return { value: parseJson(checkedText(body)), bytes: body.byteLength };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError('E_BODY_INVALID', 'The request body is not valid JSON. Send a JSON object.');
  }
}
