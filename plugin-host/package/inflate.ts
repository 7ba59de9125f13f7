// Raw-deflate inflation with a hard cap on the bytes actually produced. DecompressionStream('deflate-raw') is in
// Node 20 and Chromium; the stream is read chunk by chunk and cancelled the moment the cap is passed, so a
// zip bomb costs at most `cap` bytes of memory whatever the entry declares.

export class InflateCapExceeded extends Error {
  constructor(readonly cap: number) {
    super(`inflated output exceeds ${cap} bytes`);
  }
}

/** Inflates `input`; throws InflateCapExceeded past `cap` bytes, or the stream's error on corrupt data. */
export async function inflateRawCapped(input: Uint8Array, cap: number): Promise<Uint8Array> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  // Write and close without awaiting: awaiting the write before reading would deadlock on back-pressure.
  // Failures surface through the reader below.
  writer.write(input as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) throw new InflateCapExceeded(cap);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    await writer.abort().catch(() => {});
    throw error;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Raw-deflates `input` (used by the packer; zlib's output is deterministic for the same input and runtime). */
export async function deflateRaw(input: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  writer.write(input as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const buf = await new Response(stream.readable).arrayBuffer();
  return new Uint8Array(buf);
}
