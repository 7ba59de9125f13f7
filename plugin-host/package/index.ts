// Public face of harness-wasm-v1 package validation and packing. Isomorphic: Uint8Array in, no node: imports;
// the app's installer, `hplugin verify/pack/run` and the tests all call these.
export { validatePackage, type ValidatedPackage } from './validate-package';
export { packPackage, type PackInput, type PackResult } from './pack';
export {
  validateManifest,
  checkManifest,
  type Manifest,
  type ToolDeclaration,
  type WorkspacePermission,
} from './manifest';
export { validateWasm, REQUIRED_EXPORTS, type WasmSummary } from './wasm-validate';
export { readPackageZip, type PackageEntries } from './zip-read';
export { writeZip, type ZipInput } from './zip-write';
export { parseStrictJson, type JsonValue } from './strict-json';
export { sha256Hex, sha256HexNoble, sha256HexWebCrypto, WEBCRYPTO_THRESHOLD } from './sha256';
export { crc32 } from './crc32';
export { PACKAGE_FIXES, type PackageErrorCode } from './codes';
export { PACKAGE_LIMITS, MANIFEST_LIMITS, WASM_LIMITS, ENTRY_NAMES, type EntryName } from './limits';
export { SCHEMA_KEYWORDS, SCHEMA_TYPES } from './schema-subset';
