// The WebAssembly features plugins may use. Rust's wasm32 target emits sign-ext, mutable-global, multi-value,
// reference-types and bulk-memory by default on current stable (rustc 1.63 needs fewer), and the host ABI passes
// i64 values to JavaScript as BigInt. Every Chromium since 91 has all of them; checking at start-up turns a
// confusing plugin failure later into one clear message now.
import supports from 'webassembly-feature';

export type WasmFeature =
  | 'webassembly'
  | 'mutable-global'
  | 'sign-ext'
  | 'multi-value'
  | 'reference-types'
  | 'bulk-memory'
  | 'bigint-integration';

// Hand-assembled probes (see the .wat beside each): each validates only where the feature exists.
const SIGN_EXT = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 10, 7, 1, 5, 0, 32, 0, 192, 11,
]); // (func (param i32) (result i32) local.get 0 i32.extend8_s)
const BULK_MEMORY = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 10, 13, 1, 11, 0, 65, 0, 65, 0, 65, 0, 252,
  11, 0, 11,
]); // (memory 1) (func ... memory.fill)
const REFERENCE_TYPES = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 111, 1, 111, 3, 2, 1, 0, 10, 6, 1, 4, 0, 32, 0, 11,
]); // (func (param externref) (result externref) local.get 0)

export type WasmProbes = Record<Exclude<WasmFeature, 'webassembly'>, () => boolean>;

const validates = (bytes: Uint8Array<ArrayBuffer>) => () => WebAssembly.validate(bytes);

export const defaultWasmProbes: WasmProbes = {
  'mutable-global': () => supports['mutable-global'](),
  'sign-ext': validates(SIGN_EXT),
  'multi-value': () => supports['multi-value'](),
  'reference-types': validates(REFERENCE_TYPES),
  'bulk-memory': validates(BULK_MEMORY),
  'bigint-integration': () => supports['JS-BigInt-integration'](),
};

/** The features this browser lacks; empty when plugins can run. */
export function missingWasmFeatures(
  probes: WasmProbes = defaultWasmProbes,
  hasWasm = typeof WebAssembly === 'object',
): WasmFeature[] {
  if (!hasWasm) return ['webassembly'];
  return (Object.keys(probes) as (keyof WasmProbes)[]).filter((name) => {
    try {
      return !probes[name]();
    } catch {
      return true;
    }
  });
}
