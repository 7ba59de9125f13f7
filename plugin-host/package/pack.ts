// `hplugin pack` as a library: the one reliable way to produce a package. It writes the real SHA-256 of the wasm
// into the manifest (whatever `sha256` held before, or none), keeps the author's key order, writes a
// deterministic ZIP and validates the result with the same validator the installer uses.
import { refuse } from './codes';
import { ENTRY_NAMES } from './limits';
import { checkManifest } from './manifest';
import { sha256Hex } from './sha256';
import { parseStrictJson, type JsonValue } from './strict-json';
import { validatePackage, type ValidatedPackage } from './validate-package';
import { writeZip } from './zip-write';

export interface PackInput {
  /** manifest.json as bytes or text (parsed strictly), or as a parsed value. */
  manifest: Uint8Array | string | { [key: string]: JsonValue };
  wasm: Uint8Array;
  license: Uint8Array | string;
}

export interface PackResult {
  bytes: Uint8Array;
  validated: ValidatedPackage;
}

export async function packPackage(input: PackInput): Promise<PackResult> {
  const source =
    typeof input.manifest === 'string' || input.manifest instanceof Uint8Array
      ? parseStrictJson(input.manifest)
      : input.manifest;
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw refuse('E_MANIFEST_TYPE', 'At manifest: expected a JSON object.');
  }
  const sha256 = await sha256Hex(input.wasm);
  const withHash: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(source)) withHash[key] = key === 'sha256' ? sha256 : value;
  if (!Object.hasOwn(withHash, 'sha256')) withHash.sha256 = sha256;
  // Refuse early with paths in the author's terms, before any ZIP exists.
  checkManifest(withHash);
  const manifestBytes = new TextEncoder().encode(`${JSON.stringify(withHash, null, 2)}\n`);
  const license = typeof input.license === 'string' ? new TextEncoder().encode(input.license) : input.license;
  const data = { 'manifest.json': manifestBytes, 'plugin.wasm': input.wasm, LICENSE: license };
  const bytes = await writeZip(ENTRY_NAMES.map((name) => ({ name, data: data[name] })));
  const validated = await validatePackage(bytes);
  return { bytes, validated };
}
