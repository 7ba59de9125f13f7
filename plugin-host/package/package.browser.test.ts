// The same verdicts in Chromium as in Node: Chromium's WebAssembly.validate accepts features Node 20 refuses
// (multi-memory, memory64, tail calls, exnref, ...), so these cases prove the codes come from our own walk.
import { describe, expect, it } from 'vitest';
import { abiModule, section } from '../fixtures/packages/wasm-bytes';
import {
  customSectionSpamModule,
  customSectionsToFill,
  deflateBlockBombPackage,
  manyTypesModule,
  packageAround,
  zipPrepared,
} from '../fixtures/packages/cost-bombs';
import { packPackage } from './pack';
import { sha256Hex } from './sha256';
import { validatePackage } from './validate-package';
import { writeZip } from './zip-write';

const manifest = (sha256: string) => ({
  format_version: 1,
  id: 'example.browser',
  name: 'Browser',
  version: '1.0.0',
  runtime: 'harness-wasm-v1',
  entry: 'plugin.wasm',
  sha256,
  permissions: { workspace: 'none', storage: false },
  tools: [{ name: 'noop', description: 'Does nothing.', parameters: { type: 'object' } }],
});

/** A package around any wasm with the right hash, without validating it (hostile on purpose). */
async function rawPackage(wasm: Uint8Array, extra: { name: string; data: Uint8Array }[] = []): Promise<Uint8Array> {
  const text = JSON.stringify(manifest(await sha256Hex(wasm)));
  return writeZip([
    { name: 'manifest.json', data: new TextEncoder().encode(text) },
    { name: 'plugin.wasm', data: wasm },
    { name: 'LICENSE', data: new TextEncoder().encode('MIT') },
    ...extra,
  ]);
}

async function codeOf(bytes: Uint8Array): Promise<string> {
  try {
    await validatePackage(bytes);
    return 'accepted';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('package validation in Chromium', () => {
  it('packs and accepts a valid package with the browser streams and WebCrypto', async () => {
    const { bytes, validated } = await packPackage({
      manifest: manifest('0'.repeat(64)),
      wasm: abiModule(),
      license: 'MIT',
    });
    expect(validated.sha256).toBe(await sha256Hex(abiModule()));
    expect(await codeOf(bytes)).toBe('accepted');
  });

  it.each([
    ['two memories', abiModule({ memories: [0x02, 0x01, 0x01, 0x10, 0x01, 0x01, 0x10] }), 'E_WASM_MULTI_MEMORY'],
    ['memory64', abiModule({ memories: [0x01, 0x05, 0x01, 0x10] }), 'E_WASM_MEMORY64'],
    ['a tail call', abiModule({ body: [0x12, 0x04, 0x0b] }), 'E_WASM_UNSUPPORTED'],
    ['try_table', abiModule({ body: [0x1f, 0x40, 0x00, 0x0b, 0x0b] }), 'E_WASM_EXCEPTIONS'],
    ['a tag section', abiModule({ afterMemory: section(13, [0x01, 0x00, 0x04]) }), 'E_WASM_EXCEPTIONS'],
    ['a GC struct type', abiModule({ extraTypes: [[0x5f, 0x01, 0x7f, 0x01]] }), 'E_WASM_GC'],
    ['atomic.fence', abiModule({ body: [0xfe, 0x03, 0x00, 0x0b] }), 'E_WASM_ATOMICS'],
    ['relaxed SIMD', abiModule({ body: [0xfd, 0x80, 0x02, 0x0b] }), 'E_WASM_UNSUPPORTED'],
  ])('refuses %s with the same code as Node', async (_name, wasm, code) => {
    expect(await codeOf(await rawPackage(wasm))).toBe(code);
  });

  it('refuses an extra entry and a hash mismatch with the same codes as Node', async () => {
    expect(await codeOf(await rawPackage(abiModule(), [{ name: 'README.md', data: new Uint8Array([35]) }]))).toBe(
      'E_PACKAGE_UNEXPECTED_ENTRY',
    );
    const wasm = abiModule();
    const wrong = JSON.stringify(manifest('ab'.repeat(32)));
    const bytes = await writeZip([
      { name: 'manifest.json', data: new TextEncoder().encode(wrong) },
      { name: 'plugin.wasm', data: wasm },
      { name: 'LICENSE', data: new TextEncoder().encode('MIT') },
    ]);
    expect(await codeOf(bytes)).toBe('E_HASH_MISMATCH');
  });

  it("refuses bytes hidden after a deflate stream (which Chromium's inflater also rejects) with the Node code", async () => {
    const bytes = await rawPackage(abiModule());
    // manifest.json is the first entry and writeZip deflates it: two bytes go right after its final block.
    expect(await codeOf(spliceAfterFirstEntryData(bytes, [0x41, 0x42]))).toBe('E_PACKAGE_EXTRA_DATA');
  });

  it('caps a deflate bomb with DecompressionStream', async () => {
    // 64 MiB of zeros deflate to ~64 KiB: the cap (256 KiB for LICENSE) stops inflation long before the end.
    const bomb = await writeZip([
      { name: 'manifest.json', data: new TextEncoder().encode(JSON.stringify(manifest(await sha256Hex(abiModule())))) },
      { name: 'plugin.wasm', data: abiModule() },
      { name: 'LICENSE', data: new Uint8Array(64 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await codeOf(bomb)).toBe('E_PACKAGE_ENTRY_TOO_LARGE');
  });
});

describe('cost bombs, BOMs and invisible characters in Chromium', () => {
  it('refuses a 10 MiB package of ~900,000 empty dynamic deflate blocks with E_PACKAGE_DEFLATE_BOMB', async () => {
    const pkg = await deflateBlockBombPackage();
    expect(pkg.length).toBeGreaterThan(10 * 1024 * 1024 - 8192);
    expect(await codeOf(pkg)).toBe('E_PACKAGE_DEFLATE_BOMB');
  });

  it('refuses an 8 MiB module of empty custom sections and 2.5 million types with E_WASM_LIMIT', async () => {
    expect(await codeOf(await packageAround(customSectionSpamModule(customSectionsToFill(8 * 1024 * 1024))))).toBe(
      'E_WASM_LIMIT',
    );
    expect(await codeOf(await packageAround(manyTypesModule(2_500_000)))).toBe('E_WASM_LIMIT');
  });

  it('does not take an entry named "\\uFEFFmanifest.json" for manifest.json', async () => {
    const wasm = abiModule();
    const text = new TextEncoder().encode(JSON.stringify(manifest(await sha256Hex(wasm))));
    const license = new TextEncoder().encode('MIT');
    const bytes = zipPrepared([
      { name: '\uFEFFmanifest.json', data: text, body: text, method: 0 },
      { name: 'plugin.wasm', data: wasm, body: wasm, method: 0 },
      { name: 'LICENSE', data: license, body: license, method: 0 },
    ]);
    expect(await codeOf(bytes)).toBe('E_PACKAGE_UNEXPECTED_ENTRY');
  });

  it('refuses a module exporting "\\uFEFFmemory" at validation, not at run time', async () => {
    const wasm = abiModule();
    const i = wasm.findIndex(
      (_, k) => wasm[k] === 6 && new TextDecoder().decode(wasm.subarray(k + 1, k + 7)) === 'memory',
    );
    const renamed = new Uint8Array([...wasm.subarray(0, i), 9, 0xef, 0xbb, 0xbf, ...wasm.subarray(i + 1)]);
    renamed[renamed.lastIndexOf(7, i)! + 1]! += 3; // the export section grew by the three BOM bytes
    expect(await codeOf(await rawPackage(renamed))).toBe('E_WASM_MEMORY_NOT_EXPORTED');
  });

  it('refuses a manifest name with a right-to-left override, naming the field and U+202E', async () => {
    const wasm = abiModule();
    const m = { ...manifest(await sha256Hex(wasm)), name: 'Safe \u202Eexe.txt' };
    const bytes = await writeZip([
      { name: 'manifest.json', data: new TextEncoder().encode(JSON.stringify(m)) },
      { name: 'plugin.wasm', data: wasm },
      { name: 'LICENSE', data: new TextEncoder().encode('MIT') },
    ]);
    const error = await validatePackage(bytes).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe('E_MANIFEST_INVISIBLE_CHAR');
    expect(error?.message).toMatch(/^At name: .*U\+202E/);
  });
});

/** Inserts bytes at the end of the first entry's (deflated) data and fixes the headers and offsets to match. */
function spliceAfterFirstEntryData(zip: Uint8Array, extra: number[]): Uint8Array {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (v.getUint16(8, true) !== 8) throw new Error('first entry is not deflated');
  const csize = v.getUint32(18, true);
  const dataEnd = 30 + v.getUint16(26, true) + v.getUint16(28, true) + csize;
  const out = new Uint8Array(zip.length + extra.length);
  out.set(zip.subarray(0, dataEnd));
  out.set(extra, dataEnd);
  out.set(zip.subarray(dataEnd), dataEnd + extra.length);
  const o = new DataView(out.buffer);
  o.setUint32(18, csize + extra.length, true);
  const eocd = out.length - 22;
  const cd = o.getUint32(eocd + 16, true) + extra.length;
  o.setUint32(eocd + 16, cd, true);
  for (let p = cd, i = 0; i < o.getUint16(eocd + 10, true); i++) {
    if (i === 0) o.setUint32(p + 20, csize + extra.length, true);
    else o.setUint32(p + 42, o.getUint32(p + 42, true) + extra.length, true);
    p += 46 + o.getUint16(p + 28, true) + o.getUint16(p + 30, true) + o.getUint16(p + 32, true);
  }
  return out;
}
