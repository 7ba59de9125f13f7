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

/**
 * Counts the wasm walk caps as it reads them: V8's own limits (src/wasm/wasm-limits.h, "agreed upon with other
 * engines for consistency"; wasmparser has the same numbers), so no module the engine would accept is refused, and
 * a declared count past them is refused before anything is walked or allocated for it.
 */
export const WASM_ENGINE_LIMITS = {
  types: 1_000_000, // kV8MaxWasmTypes
  functions: 1_000_000, // kV8MaxWasmFunctions
  imports: 100_000, // kV8MaxWasmImports
  exports: 100_000, // kV8MaxWasmExports
  globals: 1_000_000, // kV8MaxWasmGlobals
  dataSegments: 100_000, // kV8MaxWasmDataSegments
  elementSegments: 10_000_000, // kV8MaxWasmTableInitEntries (V8 bounds element segments by table entries)
  elementEntries: 10_000_000, // kV8MaxWasmTableInitEntries
  tables: 100_000, // kV8MaxWasmTables
  memories: 100_000, // kV8MaxWasmMemories
  locals: 50_000, // kV8MaxWasmFunctionLocals
  functionParams: 1_000, // kV8MaxWasmFunctionParams
  functionResults: 1_000, // kV8MaxWasmFunctionReturns (multi-value)
  nameBytes: 100_000, // kV8MaxWasmStringSize
  /**
   * Ours: engines have no limit on custom sections. rustc + wasm-ld emit at most ~15 (name, producers,
   * target_features and the .debug_* family), so 1024 leaves ample room while ~2.8 million empty ones (8 MiB of
   * 3-byte sections) are refused after a few kilobytes.
   */
  customSections: 1024,
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
