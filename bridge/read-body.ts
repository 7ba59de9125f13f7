// Request bodies are counted as they arrive: the moment the count passes the cap the request is refused (413)
// and the socket is not read further, so a hostile client costs at most one cap of memory.
import type { IncomingMessage } from 'node:http';
import { BridgeError } from './errors';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        done = true;
        parts.length = 0;
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));
    });
    req.on('error', (error) => {
      if (done) return;
      done = true;
      reject(new BridgeError('E_REQUEST_ABORTED', `The request body could not be read (${error.message}).`));
    });
  });
}

const tooLarge = (maxBytes: number) =>
  new BridgeError('E_BODY_TOO_LARGE', `The request body is larger than ${maxBytes} bytes. Send less data.`);

export async function readJson(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const body = await readBody(req, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BridgeError('E_BODY_INVALID', 'The request body is not valid JSON. Send a JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BridgeError('E_BODY_INVALID', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
