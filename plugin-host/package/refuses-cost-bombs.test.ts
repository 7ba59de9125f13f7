// Inputs that fit every byte limit of seed 004 but were built to make the validator slow or hungry (issue 13's
// fuzz findings). Each is refused with a stable code after reading a small part of it; the timing targets live in
// validate.bench.ts, these tests pin the verdicts and the memory held.
import { describe, expect, it } from 'vitest';
import {
  customSectionSpamModule,
  customSectionsToFill,
  deflateBlockBombPackage,
  emptyBlocksDeflate,
  manyTypesModule,
  packageAround,
  repeatedEntriesModule,
} from '../fixtures/packages/cost-bombs';
import { abiModule } from '../fixtures/packages/wasm-bytes';
import { WASM_ENGINE_LIMITS } from './limits';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';
import { walkModule } from './wasm-module';
import { refusalOf } from '../fixtures/packages/refusal';

const MiB = 1024 * 1024;

describe('deflate block bombs', () => {
  it('refuses a 10 MiB package of ~900,000 empty dynamic blocks with E_PACKAGE_DEFLATE_BOMB', async () => {
    const pkg = await deflateBlockBombPackage();
    expect(pkg.length).toBeGreaterThan(10 * MiB - 8192);
    expect(pkg.length).toBeLessThanOrEqual(10 * MiB);
    const e = await refusalOf(() => validatePackage(pkg));
    expect(e.code).toBe('E_PACKAGE_DEFLATE_BOMB');
    expect(e.message).toMatch(/^plugin\.wasm has 65 deflate blocks for its first 0 inflated bytes\. /);
  }, 60_000);

  it('accepts the same package shape with a few empty blocks (the generator writes valid deflate)', async () => {
    await expect(
      validatePackage(await packageAround(abiModule(), emptyBlocksDeflate(10, abiModule()))),
    ).resolves.toBeDefined();
  });
});

describe('wasm walk counts and allocation', () => {
  it('refuses an 8 MiB module of ~2.8 million empty custom sections after 1024 of them', async () => {
    const wasm = customSectionSpamModule(customSectionsToFill(8 * MiB));
    expect(wasm.length).toBeGreaterThan(8 * MiB - 8);
    const e = await refusalOf(() => validateWasm(wasm));
    expect(e.code).toBe('E_WASM_LIMIT');
    expect(e.message).toContain('more than 1024 custom sections');
    // The same inside a package, through the whole validator.
    expect((await refusalOf(async () => validatePackage(await packageAround(wasm)))).code).toBe('E_WASM_LIMIT');
  });

  it('accepts 1024 custom sections', () => {
    expect(validateWasm(customSectionSpamModule(1024)).exports).toContain('harness_step');
  });

  it('refuses 2.5 million function types when it reads the count, allocating nothing for them', async () => {
    const wasm = manyTypesModule(2_500_000);
    const before = process.memoryUsage().heapUsed;
    const e = await refusalOf(() => walkModule(wasm));
    expect(e.code).toBe('E_WASM_LIMIT');
    expect(e.message).toContain('2500000 types (at most 1000000)');
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(4 * MiB);
  });

  it('keeps at most a small multiple of the module size for a million types (the engine limit)', () => {
    const wasm = manyTypesModule(WASM_ENGINE_LIMITS.types);
    const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const info = walkModule(wasm);
    const held = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - before;
    expect(info.typeOffsets.length).toBe(WASM_ENGINE_LIMITS.types);
    // 3 bytes of module per type; objects per type took ~130 bytes each (~130 MB here).
    expect(held).toBeLessThan(4 * wasm.length);
  });

  it.each([
    ['imports', 2, WASM_ENGINE_LIMITS.imports, [0, 0, 0, 0]],
    ['functions', 3, WASM_ENGINE_LIMITS.functions, [0]],
    ['globals', 6, WASM_ENGINE_LIMITS.globals, [0x7f, 0, 0x41, 0, 0x0b]],
    ['exports', 7, WASM_ENGINE_LIMITS.exports, [0, 0, 0]],
    ['data segments', 11, WASM_ENGINE_LIMITS.dataSegments, [1, 0]],
  ] as const)(
    'refuses more %s than V8 accepts as it reads the count',
    async (what, id, limit, entry) => {
      const e = await refusalOf(() => walkModule(repeatedEntriesModule(id, limit + 1, [...entry])));
      expect(e.code).toBe('E_WASM_LIMIT');
      expect(e.message).toContain(`${limit + 1} ${what} (at most ${limit})`);
      // At the limit the count itself is fine: whatever is refused next is not E_WASM_LIMIT.
      const atLimit = await refusalOf(() => validateWasm(repeatedEntriesModule(id, limit, [...entry])));
      expect(atLimit.code).not.toBe('E_WASM_LIMIT');
    },
    60_000,
  );

  it('refuses a name longer than V8 accepts (100,000 bytes)', async () => {
    const name = new Uint8Array(100_001).fill(0x61);
    // A custom section with that name: id 0, size, name length (LEB128 of 100001 = a1 8d 06), name.
    const payload = [0xa1, 0x8d, 0x06, ...name];
    const size = payload.length;
    const wasm = new Uint8Array([
      ...abiModule(),
      0,
      (size & 0x7f) | 0x80,
      ((size >> 7) & 0x7f) | 0x80,
      size >> 14,
      ...payload,
    ]);
    const e = await refusalOf(() => walkModule(wasm));
    expect(e.code).toBe('E_WASM_LIMIT');
  });
});
