// Errors that quote text from a package (entry names, manifest keys and values, wasm names) quote a bounded,
// escaped prefix: whatever a package holds, the error crossing a Worker or printed by a CLI stays a few hundred
// bytes and shows control and bidi characters as escapes.
import { describe, expect, it } from 'vitest';
import { toErrorData, type HarnessError } from '../errors';
import { refusalOf } from '../fixtures/packages/refusal';
import { buildPackage, exampleManifest } from '../fixtures/packages/valid-parts';
import { abiModule } from '../fixtures/packages/wasm-bytes';
import { checkManifest } from './manifest';
import { parseStrictJson, type JsonValue } from './strict-json';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';

/** The error as it crosses a Worker or the bridge. */
const wireSize = (e: HarnessError) => JSON.stringify(toErrorData(e)).length;

describe('bounded quotes of package text', () => {
  it('a 60 KiB entry name yields an error of a few hundred bytes', async () => {
    const name = 'x'.repeat(60 * 1024);
    const e = await refusalOf(async () =>
      validatePackage(await buildPackage({ entries: (es) => [...es, { name, data: 'x' }] })),
    );
    expect(e.code).toBe('E_PACKAGE_UNEXPECTED_ENTRY');
    expect(e.message).toContain(`(${name.length} characters)`);
    expect(wireSize(e)).toBeLessThan(1000);
  });

  it('a 3 MiB manifest key yields an error of a few hundred bytes (unknown, duplicate and forbidden-key paths)', async () => {
    const key = 'k'.repeat(3 * 1024 * 1024);
    const unknown = await refusalOf(() => checkManifest({ ...exampleManifest(), [key]: 1 } as JsonValue));
    expect(unknown.code).toBe('E_MANIFEST_UNKNOWN_KEY');
    expect(wireSize(unknown)).toBeLessThan(1200);
    const duplicate = await refusalOf(() => parseStrictJson(`{"${key}": 1, "${key}": 2}`));
    expect(duplicate.code).toBe('E_MANIFEST_DUPLICATE_KEY');
    expect(wireSize(duplicate)).toBeLessThan(1200);
    const nested = await refusalOf(() => parseStrictJson(`{"${key}": {"__proto__": 1}}`));
    expect(nested.code).toBe('E_MANIFEST_FORBIDDEN_KEY');
    expect(wireSize(nested)).toBeLessThan(1200);
  });

  it('a 60 KiB schema keyword inside a package yields a bounded error', async () => {
    const m = exampleManifest();
    (m.tools as Record<string, Record<string, unknown>>[])[0]!.parameters!['y'.repeat(60 * 1024)] = 1;
    const e = await refusalOf(async () => validatePackage(await buildPackage({ manifest: m })));
    expect(e.code).toBe('E_MANIFEST_SCHEMA_KEYWORD');
    expect(wireSize(e)).toBeLessThan(1200);
  });

  it('escapes bidi and control characters of a quoted name instead of passing them on', async () => {
    const e = await refusalOf(async () =>
      validatePackage(
        await buildPackage({ entries: (es) => [...es, { name: 'evil\u202Egnp.exe\u001b[2J', data: 'x' }] }),
      ),
    );
    expect(e.message).toContain('"evil\\u202egnp.exe\\x1b[2J"');
    expect(e.message.includes('\u202e') || e.message.includes('\u001b')).toBe(false);
  });

  it('a manifest value is quoted bounded and escaped', async () => {
    const e = await refusalOf(() =>
      checkManifest({ ...exampleManifest(), runtime: `\u001b]0;pwned\u0007${'r'.repeat(100_000)}` } as JsonValue),
    );
    expect(e.code).toBe('E_MANIFEST_RUNTIME');
    expect(e.message).toContain('"\\x1b]0;pwned\\x07rrr');
    expect(wireSize(e)).toBeLessThan(1000);
  });

  it('a wasm import with a 90 KB name yields a bounded E_WASM_IMPORTS', async () => {
    const long = 'm'.repeat(90_000);
    const leb = (n: number) => [(n & 0x7f) | 0x80, ((n >> 7) & 0x7f) | 0x80, n >> 14];
    const entry = [...leb(long.length), ...new TextEncoder().encode(long), 1, 0x61, 0x00, 0x00];
    const payload = [1, ...entry];
    // The import section (id 2) goes right after the type section of the ABI module.
    const wasm = abiModule();
    const typeEnd = 8 + 2 + wasm[9]!;
    const bytes = new Uint8Array([
      ...wasm.subarray(0, typeEnd),
      2,
      ...leb(payload.length),
      ...payload,
      ...wasm.subarray(typeEnd),
    ]);
    const e = await refusalOf(() => validateWasm(bytes));
    expect(e.code).toBe('E_WASM_IMPORTS');
    expect(wireSize(e)).toBeLessThan(1000);
  });
});
