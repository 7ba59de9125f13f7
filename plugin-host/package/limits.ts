// Limits of a harness-wasm-v1 package (seed 004 "包格式" and "ABI 与执行限制"). Sizes are checked on the bytes
// actually read or inflated; sizes declared inside the ZIP are never trusted.

const KiB = 1024;
const MiB = 1024 * KiB;

export const PACKAGE_LIMITS = {
  /** Whole `.hplugin.zip`. */
  packageBytes: 10 * MiB,
  manifestBytes: 64 * KiB,
  wasmBytes: 8 * MiB,
  licenseBytes: 256 * KiB,
} as const;

/** The three entries of the package root, in the order `hplugin pack` writes them. */
export const ENTRY_NAMES = ['manifest.json', 'plugin.wasm', 'LICENSE'] as const;
export type EntryName = (typeof ENTRY_NAMES)[number];

export const ENTRY_LIMITS: Record<EntryName, number> = {
  'manifest.json': PACKAGE_LIMITS.manifestBytes,
  'plugin.wasm': PACKAGE_LIMITS.wasmBytes,
  LICENSE: PACKAGE_LIMITS.licenseBytes,
};

export const WASM_LIMITS = {
  /** 64 MiB of wasm32 memory = 1024 pages of 64 KiB. */
  maxMemoryPages: 1024,
  /** Rust (wasm-ld) emits one funcref table; reference types may add a few. */
  maxTables: 4,
  /** Declared maximum of each table, in elements. */
  maxTableElements: 65_536,
} as const;

export const MANIFEST_LIMITS = {
  idBytes: 64,
  nameBytes: 128,
  minTools: 1,
  maxTools: 16,
  toolNameBytes: 32,
  descriptionBytes: 4096,
  /** Nesting of JSON values in manifest.json (objects and arrays). */
  jsonDepth: 32,
  /** Nesting of schemas inside `parameters` (properties / items). */
  schemaDepth: 16,
} as const;
