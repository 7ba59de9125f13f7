// Shared by the archive tests (Node and Chromium): archives made with zip.js, and raw byte surgery on them for
// the hostile cases a writer refuses to produce.
import {
  Uint8ArrayReader,
  Uint8ArrayWriter,
  ZipWriter,
  type ZipWriterAddDataOptions,
  type ZipWriterConstructorOptions,
} from '@zip.js/zip.js';

export type TestEntry = { name: string; data?: string | Uint8Array; options?: ZipWriterAddDataOptions };

export async function zipOf(
  entries: TestEntry[],
  options: ZipWriterConstructorOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const zip = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false, ...options });
  for (const e of entries) {
    const data = typeof e.data === 'string' ? new TextEncoder().encode(e.data) : e.data;
    await zip.add(e.name, data ? new Uint8ArrayReader(data as Uint8Array<ArrayBuffer>) : undefined, e.options);
  }
  return zip.close();
}

/** A sink collecting what a download writes. */
export function collectingSink() {
  const chunks: Uint8Array[] = [];
  const stream = new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c.slice()) });
  return { stream, blob: () => new Blob(chunks as Uint8Array<ArrayBuffer>[]) };
}

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Offsets of every local header and central directory record (a plain scan: test archives only). */
function records(bytes: Uint8Array, signature: number): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++) if (view.getUint32(i, true) === signature) out.push(i);
  return out;
}

/** Rewrites a field of the first entry in both its local header and its central record. */
export function patchFirstEntry(
  bytes: Uint8Array,
  field: 'method' | 'uncompressedSize' | 'crc',
  value: number,
  where: 'both' | 'local' = 'both',
): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const local = records(out, LOCAL)[0] as number;
  const central = records(out, CENTRAL)[0] as number;
  const localAt = { method: 8, crc: 14, uncompressedSize: 22 }[field];
  const centralAt = { method: 10, crc: 16, uncompressedSize: 24 }[field];
  const put = (at: number) => (field === 'method' ? view.setUint16(at, value, true) : view.setUint32(at, value, true));
  put(local + localAt);
  if (where === 'both') put(central + centralAt);
  return out;
}

/** The offset of the first entry's data (after its local header, name and extra field). */
export function firstDataOffset(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = records(bytes, LOCAL)[0] as number;
  return local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
}

/** Breaks the central directory's first record signature, leaving the end record intact. */
export function breakCentralDirectory(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out[records(out, CENTRAL)[0] as number] = 0;
  return out;
}
