// The model sees a reference as one opaque string (`cr1.` + base64url JSON) and hands it back to read_result. The
// token is not authority: the store still checks every field against what it saved, and the scope comes from
// the host.
import { checkRef, contentError, type ContentRef } from './content-store';
import { decodeUtf8, utf8Encoder } from './utf8';

const PREFIX = 'cr1.';
const MAX_TOKEN = 2048;

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export function encodeRef(ref: ContentRef): string {
  const r = {
    s: ref.storeId,
    i: ref.sourceId,
    ss: ref.sessionId,
    t: ref.taskId,
    n: ref.totalBytes,
    e: ref.expiresAtMs,
  };
  return PREFIX + toBase64Url(utf8Encoder.encode(JSON.stringify(r)));
}

export function decodeRef(token: string): ContentRef {
  const bad = () =>
    contentError(
      'E_CONTENT_REF_INVALID',
      'The ref is not a content reference. Copy it exactly as the truncated result showed it.',
    );
  if (
    typeof token !== 'string' ||
    !token.startsWith(PREFIX) ||
    token.length > MAX_TOKEN ||
    !/^[A-Za-z0-9_-]+$/.test(token.slice(PREFIX.length))
  )
    throw bad();
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(decodeUtf8(fromBase64Url(token.slice(PREFIX.length)))) as Record<string, unknown>;
  } catch {
    throw bad();
  }
  if (typeof r !== 'object' || r === null || Object.keys(r).length !== 6) throw bad();
  return checkRef({ storeId: r.s, sourceId: r.i, sessionId: r.ss, taskId: r.t, totalBytes: r.n, expiresAtMs: r.e });
}
