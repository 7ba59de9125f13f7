// A multipart/form-data body built by hand (RFC 7578): the core sends the provider's raw bytes, so the body must exist
// as bytes before the request (FormData would leave the boundary and the framing to fetch).
const encoder = new TextEncoder();

export type FormField =
  { name: string; value: string } | { name: string; filename: string; contentType: string; bytes: Uint8Array };

/** Field names and file names go inside quotes: quotes and line breaks would break the framing. */
const quoted = (text: string) => text.replace(/[\r\n"\\]/g, '_');

export function multipartBody(
  fields: readonly FormField[],
  boundary: string,
): { contentType: string; body: Uint8Array } {
  if (!/^[0-9A-Za-z'()+_,./:=?-]{1,70}$/.test(boundary))
    throw new Error('multipart boundary must be 1-70 safe characters');
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    const head =
      'bytes' in f
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(f.name)}"; filename="${quoted(f.filename)}"\r\nContent-Type: ${f.contentType}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(f.name)}"\r\n\r\n`;
    parts.push(encoder.encode(head), 'bytes' in f ? f.bytes : encoder.encode(f.value), encoder.encode('\r\n'));
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
