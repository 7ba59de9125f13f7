// Robustness: byte-level mutations of a valid package and of a valid module never crash the validator with a
// foreign exception (RangeError, TypeError) or hang: each ends in acceptance or a refusal with a known code.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors';
import { PACKAGE_FIXES } from './codes';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';
import { buildPackage } from '../fixtures/packages/valid-parts';
import { ALL_FEATURES, readWat, watToWasm } from '../fixtures/packages/wat';

let seed = 0x2545f491;
const rand = (n: number) => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};

function mutate(input: Uint8Array): Uint8Array {
  const out = input.slice();
  const kind = rand(4);
  if (kind === 0) out[rand(out.length)] = rand(256);
  else if (kind === 1) {
    const at = rand(out.length);
    out[at] = out[at]! ^ (1 << rand(8));
  } else if (kind === 2) return out.subarray(0, rand(out.length));
  else for (let i = 0, at = rand(out.length); i < 4 && at + i < out.length; i++) out[at + i] = 0xff;
  return out;
}

const known = new Set(Object.keys(PACKAGE_FIXES));
function outcome(run: () => unknown): string {
  try {
    run();
    return 'accepted';
  } catch (e) {
    if (!HarnessError.isInstance(e) || !known.has(e.code)) throw e;
    return e.code;
  }
}

describe('mutated input', () => {
  it('ends every mutated module in acceptance or a known wasm code', async () => {
    const wasm = await watToWasm(readWat('modern-features.wat'), ALL_FEATURES);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) seen.add(outcome(() => validateWasm(mutate(wasm))));
    expect(seen.size).toBeGreaterThan(3);
  });

  it('ends every mutated package in acceptance or a known code', async () => {
    const pkg = await buildPackage();
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const bytes = mutate(pkg);
      try {
        await validatePackage(bytes);
        seen.add('accepted');
      } catch (e) {
        if (!HarnessError.isInstance(e) || !known.has(e.code)) throw e;
        seen.add(e.code);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
  });
});
