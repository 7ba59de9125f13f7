import { describe, expect, it } from 'vitest';
import { defaultWasmProbes, missingWasmFeatures } from './wasm-features';

describe('WebAssembly feature check', () => {
  it('finds every required feature in a current engine (Node 20 / V8)', () => {
    expect(missingWasmFeatures()).toEqual([]);
  });

  it('names each feature whose probe fails or throws', () => {
    const probes = {
      ...defaultWasmProbes,
      'bulk-memory': () => false,
      'sign-ext': () => {
        throw new Error('no');
      },
    };
    expect(missingWasmFeatures(probes)).toEqual(['sign-ext', 'bulk-memory']);
  });

  it('reports WebAssembly itself missing when the engine has none', () => {
    expect(missingWasmFeatures(defaultWasmProbes, false)).toEqual(['webassembly']);
  });
});
