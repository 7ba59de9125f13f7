// npm run bench: what full validation costs over the unavoidable work (unzip + hash) on an 8 MiB plugin.wasm,
// what the wasm walk costs next to the engine's own WebAssembly.validate, which SHA-256 to use for large
// inputs (@noble/hashes vs WebCrypto, measured in the same run; sha256.ts uses the faster one past 64 KiB), and
// what the cost bombs of issue 13 cost next to unzip + hash of the largest normal package, with memory.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { constants, createDeflateRaw } from 'node:zlib';
import { expect, it } from 'vitest';
import { compare, report } from '../../scripts/bench-kit';
import {
  customSectionSpamModule,
  customSectionsToFill,
  deflateBlockBombPackage,
  manyTypesModule,
  packageAround,
} from '../fixtures/packages/cost-bombs';
import { leb } from '../fixtures/packages/wasm-bytes';
import { BYTES_PER_BLOCK, FREE_BLOCKS, walkDeflate } from './deflate-end';
import { packPackage } from './pack';
import { sha256HexNoble, sha256HexWebCrypto, sha256Hex } from './sha256';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';
import { readPackageZip } from './zip-read';
import { walkModule } from './wasm-module';

const MiB = 1024 * 1024;

/** A valid ABI module just under 8 MiB whose code section is a realistic instruction mix with random constants. */
function bigModule(target = 8 * MiB - 4096): Uint8Array {
  const sleb = (n: number): number[] => {
    const out: number[] = [];
    for (;;) {
      const b = n & 0x7f;
      n >>= 7;
      if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return (out.push(b), out);
      out.push(b | 0x80);
    }
  };
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  // One function body of ~4 KiB: loads, arithmetic, a block, a call, a SIMD splat/extract, stores.
  const body = (): number[] => {
    const ops: number[] = [0x01, 0x02, 0x7f]; // 1 local group: 2 x i32
    for (let i = 0; ops.length < 4000; i++) {
      ops.push(0x41, ...sleb(rand() - 0x40000000), 0x28, 0x02, ...leb(rand() & 0xffff)); // i32.const; i32.load
      ops.push(0x20, 0x00, 0x6a, 0x21, 0x00); // local.get 0; i32.add; local.set 0
      ops.push(0x02, 0x40, 0x20, 0x00, 0x45, 0x0d, 0x00, 0x0b); // block; local.get; i32.eqz; br_if 0; end
      ops.push(0x41, 0x00, 0x20, 0x00, 0xfd, 0x11, 0xfd, 0x1b, 0x00, 0x36, 0x02, 0x00); // i32x4.splat, extract_lane 0, store
      if (i % 8 === 0) ops.push(0x41, ...sleb(rand() & 0xfff), 0x10, 0x01, 0x1a); // call harness_alloc; drop
    }
    ops.push(0x0b);
    return [...leb(ops.length), ...ops];
  };
  const bodies: number[][] = [
    [0x00, 0x41, 0x01, 0x0b],
    [0x00, 0x20, 0x00, 0x0b],
    [0x00, 0x0b],
    [0x00, 0x42, 0x00, 0x0b],
  ].map((b) => [...leb(b.length), ...b]);
  let size = 0;
  while (size < target - 300) {
    const b = body();
    bodies.push(b);
    size += b.length;
  }
  const name = (s: string) => [s.length, ...new TextEncoder().encode(s)];
  const sec = (id: number, payload: number[]) => [id, ...leb(payload.length), ...payload];
  const vec = (items: number[][]) => [...leb(items.length), ...items.flat()];
  const types = [
    [0x60, 0x00, 0x01, 0x7f],
    [0x60, 0x01, 0x7f, 0x01, 0x7f],
    [0x60, 0x02, 0x7f, 0x7f, 0x00],
    [0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7e],
    [0x60, 0x00, 0x00],
  ];
  const funcs = bodies.map((_, i) => (i < 4 ? [i] : [4]));
  const exports = [
    [...name('memory'), 0x02, 0x00],
    [...name('harness_abi_version'), 0x00, 0x00],
    [...name('harness_alloc'), 0x00, 0x01],
    [...name('harness_free'), 0x00, 0x02],
    [...name('harness_step'), 0x00, 0x03],
  ];
  const code: number[] = [...leb(bodies.length)];
  for (const b of bodies) for (const x of b) code.push(x);
  const header = [
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...sec(1, vec(types)),
    ...sec(3, vec(funcs)),
    ...sec(5, [0x01, 0x01, 0x11, 0x80, 0x08]),
    ...sec(7, vec(exports)),
  ];
  const codeSection = [10, ...leb(code.length)];
  const out = new Uint8Array(header.length + codeSection.length + code.length);
  out.set(header);
  out.set(codeSection, header.length);
  out.set(code, header.length + codeSection.length);
  return out;
}

it('validates an 8 MiB package at a small multiple of unzip + hash', async () => {
  const wasm = bigModule();
  const manifest = {
    format_version: 1,
    id: 'bench.big',
    name: 'Big',
    version: '1.0.0',
    runtime: 'harness-wasm-v1',
    entry: 'plugin.wasm',
    permissions: { workspace: 'none', storage: false },
    tools: [{ name: 'noop', description: 'Nothing.', parameters: { type: 'object' } }],
  };
  const { bytes } = await packPackage({ manifest, wasm, license: 'MIT' });
  report(
    'package sizes',
    `plugin.wasm ${(wasm.length / MiB).toFixed(2)} MiB, package ${(bytes.length / MiB).toFixed(2)} MiB`,
    bytes.length / wasm.length,
  );
  await compare(
    'validate 8 MiB package',
    { label: 'unzip + sha256', run: async () => sha256Hex((await readPackageZip(bytes))['plugin.wasm']) },
    { label: 'validatePackage', run: () => validatePackage(bytes) },
    { runs: 9, warmup: 2, target: 3 },
  );
  await compare(
    'wasm checks on 8 MiB',
    { label: 'WebAssembly.validate', run: () => WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>) },
    { label: 'our section + code walk', run: () => walkModule(wasm) },
    { runs: 9, warmup: 2 },
  );
  await compare(
    'validateWasm vs engine validate',
    { label: 'WebAssembly.validate', run: () => WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>) },
    { label: 'validateWasm (walk + rules + engine)', run: () => validateWasm(wasm) },
    { runs: 9, warmup: 2 },
  );
}, 300_000);

it('uses the faster SHA-256 for large inputs', async () => {
  const data = new Uint8Array(8 * MiB).map((_, i) => (i * 2654435761) >>> 24);
  const r = await compare(
    'sha256 8 MiB',
    { label: '@noble/hashes', run: () => sha256HexNoble(data) },
    { label: 'WebCrypto', run: () => sha256HexWebCrypto(data) },
    { runs: 9, warmup: 2, target: 1 },
  );
  report(
    'sha256Hex picks',
    r.ratio <= 1 ? 'WebCrypto (as sha256.ts does for >= 64 KiB)' : 'noble would be faster: revisit sha256.ts',
    r.ratio,
  );
  // Below the threshold the promise round-trip of WebCrypto costs more than hashing in JavaScript.
  const small = new Uint8Array(4 * 1024);
  await compare(
    'sha256 4 KiB',
    { label: '@noble/hashes', run: () => sha256HexNoble(small) },
    { label: 'WebCrypto', run: () => sha256HexWebCrypto(small) },
    { runs: 31, warmup: 5 },
  );
  const atThreshold = new Uint8Array(64 * 1024);
  await compare(
    'sha256 64 KiB (the threshold)',
    { label: '@noble/hashes', run: () => sha256HexNoble(atThreshold) },
    { label: 'WebCrypto', run: () => sha256HexWebCrypto(atThreshold) },
    { runs: 31, warmup: 5 },
  );
}, 300_000);

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

// A full collection before each memory reading, so the figures are this run's and not earlier garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Memory one run takes, from a collected heap: heap + ArrayBuffers right after it (what it holds plus garbage not
 * yet collected: close to what it allocated), what it still holds after a collection, and growth of the process's
 * peak RSS.
 */
async function memoryOf(run: () => unknown): Promise<string> {
  gc();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  const rssBefore = process.resourceUsage().maxRSS;
  const result = await run();
  const peak = used() - before;
  gc();
  const held = used() - before;
  void result;
  return `heap + buffers +${mib(Math.max(0, peak))} after the run, +${mib(Math.max(0, held))} held, peak RSS +${mib((process.resourceUsage().maxRSS - rssBefore) * 1024)}`;
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    () => 'accepted',
    (e: { code?: string }) => e.code ?? 'error',
  );

/** `wasm` deflated by a streaming writer that flushes every `every` bytes: the most blocks the walk accepts. */
async function flushedDeflate(wasm: Uint8Array, every: number): Promise<Uint8Array> {
  const d = createDeflateRaw();
  const chunks: Buffer[] = [];
  d.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => d.on('end', () => resolve()));
  for (let i = 0; i < wasm.length; i += every) {
    d.write(wasm.subarray(i, i + every));
    await new Promise<void>((resolve) => d.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  }
  d.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

it('refuses the cost bombs of issue 13 within a small multiple of unzip + hash of the largest normal package', async () => {
  // The largest normal package: an 8 MiB module, stored (a package cannot be larger with real content: the
  // other two entries are capped at 64 + 256 KiB). The bombs are 10 MiB and 8 MiB, so the comparison is fair.
  const normal = await packageAround(bigModule());
  const deflateBomb = await deflateBlockBombPackage();
  const spam = await packageAround(customSectionSpamModule(customSectionsToFill(8 * MiB)));
  expect(await settle(validatePackage(deflateBomb))).toBe('E_PACKAGE_DEFLATE_BOMB');
  expect(await settle(validatePackage(spam))).toBe('E_WASM_LIMIT');
  report(
    'cost-bomb sizes',
    `normal ${mib(normal.length)}, deflate block bomb ${mib(deflateBomb.length)}, custom-section spam ${mib(spam.length)}`,
    deflateBomb.length / normal.length,
  );

  // Memory first, before the timed runs raise the process's peak.
  report('memory: deflate block bomb', await memoryOf(() => settle(validatePackage(deflateBomb))), 1);
  report('memory: custom-section spam', await memoryOf(() => settle(validatePackage(spam))), 1);
  report(
    'memory: unzip + sha256 of the normal package',
    await memoryOf(async () => sha256Hex((await readPackageZip(normal))['plugin.wasm'])),
    1,
  );

  const baseline = {
    label: 'unzip + sha256 (normal 8 MiB)',
    run: async () => sha256Hex((await readPackageZip(normal))['plugin.wasm']),
  };
  await compare(
    'validate 10 MiB deflate block bomb',
    baseline,
    { label: 'validatePackage (refused)', run: () => settle(validatePackage(deflateBomb)) },
    { runs: 9, warmup: 2, target: 3 },
  );
  await compare(
    'validate 8 MiB custom-section spam',
    baseline,
    { label: 'validatePackage (refused)', run: () => settle(validatePackage(spam)) },
    { runs: 9, warmup: 2, target: 3 },
  );

  // The most blocks the walk lets through: a streaming writer sync-flushing every 1 KiB (two blocks each), about
  // one block per BYTES_PER_BLOCK inflated bytes, on the 8 MiB module. Validated in full and accepted; compared with
  // the full validation of the same module deflated by the same zlib without flushes, so the ratio is the cost of
  // the extra blocks (our walk and the native inflater both pay per block).
  const wasm = bigModule();
  const body = await flushedDeflate(wasm, 2 * BYTES_PER_BLOCK);
  const flushed = await packageAround(wasm, body);
  const plain = await packageAround(wasm, await flushedDeflate(wasm, wasm.length));
  const walk = walkDeflate(body);
  expect(walk.blocks).toBeLessThanOrEqual(FREE_BLOCKS + wasm.length / BYTES_PER_BLOCK);
  expect(walk.blocks).toBeGreaterThan(wasm.length / BYTES_PER_BLOCK - 64);
  expect(await settle(validatePackage(flushed))).toBe('accepted');
  report('memory: validate the most-blocks package', await memoryOf(() => validatePackage(flushed)), 1);
  await compare(
    `validate ${walk.blocks} deflate blocks (the most accepted) vs unflushed`,
    { label: 'validatePackage (same module, no flushes)', run: () => validatePackage(plain) },
    { label: 'validatePackage (accepted)', run: () => validatePackage(flushed) },
    { runs: 5, warmup: 1, target: 3 },
  );
}, 600_000);

it("walks a million function types (V8's limit) in a small multiple of the module's size", async () => {
  const wasm = manyTypesModule(1_000_000);
  report(
    'memory: walk 1,000,000 types',
    `${await memoryOf(() => walkModule(wasm))} for a ${mib(wasm.length)} module`,
    1,
  );
  await compare(
    'walk 1,000,000 types',
    { label: 'WebAssembly.validate', run: () => WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>) },
    { label: 'our walk', run: () => walkModule(wasm) },
    { runs: 7, warmup: 1 },
  );
}, 300_000);
