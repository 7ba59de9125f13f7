// The one validator the installer, `hplugin verify`, `hplugin pack` (on its own output) and `hplugin run` share.
import { refuse } from './codes';
import { type Manifest, validateManifest } from './manifest';
import { sha256Hex } from './sha256';
import { validateWasm, type WasmSummary } from './wasm-validate';
import { readPackageZip } from './zip-read';

// Lenient (LICENSE is shown, not interpreted) but, like every decoder of package bytes, it never strips a BOM.
const licenseDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

export interface ValidatedPackage {
  manifest: Manifest;
  /** The exact plugin.wasm bytes whose SHA-256 was checked: compile these, not a copy read again. */
  wasm: Uint8Array;
  license: Uint8Array;
  /** LICENSE decoded as UTF-8 (invalid sequences replaced, a leading BOM kept) for display. */
  licenseText: string;
  /** SHA-256 of plugin.wasm, lowercase hex (equals manifest.sha256). */
  sha256: string;
  wasmInfo: WasmSummary;
  /** Size of the package file in bytes. */
  size: number;
}

/** Validates a whole .hplugin.zip; throws HarnessError with a stable E_PACKAGE_/E_MANIFEST_/E_WASM_/E_HASH_ code. */
export async function validatePackage(bytes: Uint8Array): Promise<ValidatedPackage> {
  const entries = await readPackageZip(bytes);
  const manifest = validateManifest(entries['manifest.json']);
  const wasm = entries['plugin.wasm'];
  const sha256 = await sha256Hex(wasm);
  if (sha256 !== manifest.sha256) {
    throw refuse('E_HASH_MISMATCH', `plugin.wasm has SHA-256 ${sha256} but manifest.sha256 is ${manifest.sha256}.`, {
      actual: sha256,
      declared: manifest.sha256,
    });
  }
  const wasmInfo = validateWasm(wasm);
  const license = entries.LICENSE;
  if (license.length === 0) throw refuse('E_PACKAGE_EMPTY_LICENSE', 'LICENSE is empty.');
  return { manifest, wasm, license, licenseText: licenseDecoder.decode(license), sha256, wasmInfo, size: bytes.length };
}
