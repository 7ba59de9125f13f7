// Stable refusal codes of package validation. A code is never reworded once shipped; each carries the sentence
// that tells the person how to fix it. The message of a refusal is "<what is wrong> <fix>"; manifest refusals
// start with the JSON path ("At tools.0.name: ...").
import { HarnessError, QUOTE_MAX_CHARS, codePointLabel, escapeControls, findInvisibleChar } from '../errors';

export const PACKAGE_FIXES = {
  // ZIP container (seed 004 "包格式").
  E_PACKAGE_TOO_LARGE:
    'A package may be at most 10 MiB; shrink plugin.wasm (opt-level "s", lto, strip) and repack with hplugin pack.',
  E_PACKAGE_NOT_ZIP: 'The file is not a ZIP archive; build the package with hplugin pack.',
  E_PACKAGE_MALFORMED:
    'The ZIP structure is broken or truncated; rebuild the package with hplugin pack instead of editing the ZIP by hand.',
  E_PACKAGE_ZIP64: 'ZIP64 archives are refused; build the package with hplugin pack, which never writes ZIP64.',
  E_PACKAGE_COMMENT: 'Archive and entry comments are refused; repack with hplugin pack.',
  E_PACKAGE_ENCRYPTED: 'Encrypted entries are refused; repack with hplugin pack without a password.',
  E_PACKAGE_METHOD: 'Only stored and deflate entries are accepted; repack with hplugin pack.',
  E_PACKAGE_EXTRA_DATA:
    'The archive has bytes outside its entries (before, between or after them); repack with hplugin pack instead of concatenating or editing files.',
  E_PACKAGE_HEADER_MISMATCH:
    'A local file header disagrees with the central directory; repack with hplugin pack instead of editing the ZIP by hand.',
  E_PACKAGE_DIRECTORY:
    'Directories are refused: the package root holds only manifest.json, plugin.wasm and LICENSE. Repack with hplugin pack.',
  E_PACKAGE_SYMLINK: 'Symbolic links are refused; repack with hplugin pack from regular files.',
  E_PACKAGE_ENTRY_NAME:
    'Entry names must be plain file names at the root (no "/", "\\", ".." or leading "/"); repack with hplugin pack.',
  E_PACKAGE_DUPLICATE_ENTRY:
    'Each entry may appear once (names are compared case-insensitively); repack with hplugin pack.',
  E_PACKAGE_UNEXPECTED_ENTRY:
    'The package root holds exactly manifest.json, plugin.wasm and LICENSE, with no source code or other files; repack with hplugin pack.',
  E_PACKAGE_MISSING_ENTRY:
    'The package root must hold manifest.json, plugin.wasm and LICENSE; repack with hplugin pack --manifest --wasm --license.',
  E_PACKAGE_ENTRY_TOO_LARGE:
    'Limits are manifest.json 64 KiB, plugin.wasm 8 MiB, LICENSE 256 KiB (inflated); shrink the file and repack with hplugin pack.',
  E_PACKAGE_CRC:
    'An entry does not match its CRC-32, so the package is corrupt; download it again or repack with hplugin pack.',
  E_PACKAGE_DEFLATE_BOMB:
    "An entry's deflate data holds far more blocks than its inflated bytes need (at most 64 plus one per 512 bytes), which only a file crafted to slow down inflaters does; repack with hplugin pack.",
  E_PACKAGE_ZIP_FEATURE:
    'An entry uses a ZIP feature packages never need (general-purpose flag bits other than 1, 2, 3 and 11, or a version needed above 63); repack with hplugin pack.',
  E_PACKAGE_EXTRA_FIELD:
    'Extra fields that give an entry another name or a comment for other tools (Info-ZIP Unicode Path 0x7075, Unicode Comment 0x6375) are refused; repack with hplugin pack.',
  E_PACKAGE_EMPTY_LICENSE: "Put the plugin's license text in it and repack with hplugin pack.",

  // manifest.json.
  E_MANIFEST_UTF8: 'manifest.json must be strict UTF-8 (no byte-order mark); save it as UTF-8 and repack.',
  E_MANIFEST_JSON: 'manifest.json must be valid JSON; fix the syntax and repack.',
  E_MANIFEST_DUPLICATE_KEY: 'A JSON object may name each key once; remove the duplicate and repack.',
  E_MANIFEST_FORBIDDEN_KEY:
    'The keys "__proto__", "constructor" and "prototype" are refused anywhere in manifest.json; rename it and repack.',
  E_MANIFEST_UNKNOWN_KEY: 'The manifest accepts only the documented fields; remove the key and repack.',
  E_MANIFEST_MISSING_FIELD:
    'Add the required field (every field is described under "manifest.json" in sdk-rust/README.md) and repack.',
  E_MANIFEST_TYPE:
    'The field has the wrong JSON type; fix it as "manifest.json" in sdk-rust/README.md shows and repack.',
  E_MANIFEST_FORMAT_VERSION: 'Set "format_version" to 1.',
  E_MANIFEST_ID:
    'The id is 1-64 bytes: a lowercase letter, then lowercase letters, digits, "." or "-" (for example "example.word-count").',
  E_MANIFEST_NAME: 'The name is 1-128 bytes of text without control characters.',
  E_MANIFEST_VERSION: 'The version is three non-negative integers without leading zeros, such as "1.0.0".',
  E_MANIFEST_RUNTIME: 'Set "runtime" to "harness-wasm-v1".',
  E_MANIFEST_ENTRY: 'Set "entry" to "plugin.wasm".',
  E_MANIFEST_SHA256: 'sha256 is 64 lowercase hex digits; let hplugin pack write it.',
  E_MANIFEST_PERMISSIONS:
    'permissions.workspace is "none", "read" or "read-write" and permissions.storage is true or false.',
  E_MANIFEST_TOOLS: 'A plugin declares 1-16 tools.',
  E_MANIFEST_TOOL_NAME:
    'A tool name is 1-32 bytes: a lowercase letter, then lowercase letters, digits or "_" (for example "count_words").',
  E_MANIFEST_DUPLICATE_TOOL: 'Each tool name may appear once in a plugin; rename one of them.',
  E_MANIFEST_DESCRIPTION: 'A tool description is 1-4096 bytes of text telling the model what the tool does.',
  E_MANIFEST_INVISIBLE_CHAR:
    'Text a person reads (the id and name, tool names and descriptions, schema property names, titles and descriptions) may not contain bidirectional controls, zero-width characters or C1 controls, which hide or reorder what is shown; remove the character and repack.',
  E_MANIFEST_SCHEMA:
    'tool.parameters must follow the supported JSON Schema subset (plugin-host/package/CONTEXT.md); fix the schema and repack.',
  E_MANIFEST_SCHEMA_KEYWORD:
    'Only the supported JSON Schema keywords are accepted (no $ref, no "x-" vendor keywords); remove it and repack.',

  // plugin.wasm.
  E_HASH_MISMATCH:
    'plugin.wasm is not the file the manifest was packed with; repack with hplugin pack, which writes the real SHA-256.',
  E_WASM_INVALID:
    "plugin.wasm is not a valid WebAssembly module; rebuild it for wasm32-unknown-unknown with the SDK's official config.",
  E_WASM_IMPORTS:
    'Plugins may import nothing: this is usually WASI or a JS-bindings crate (wasm-bindgen) being used; build for wasm32-unknown-unknown with the SDK and its official config.',
  E_WASM_MEMORY_MISSING: "The module must define exactly one memory; build with the SDK's official config.",
  E_WASM_MULTI_MEMORY:
    "Multiple memories are refused; a plugin has exactly one memory. Build with the SDK's official config.",
  E_WASM_MEMORY_NO_MAXIMUM:
    'The memory has no declared maximum; build with the official config (-C link-arg=--max-memory=67108864 in .cargo/config.toml).',
  E_WASM_MEMORY_TOO_LARGE:
    'The memory maximum is above 1024 pages (64 MiB); build with the official config (-C link-arg=--max-memory=67108864).',
  E_WASM_MEMORY_SHARED:
    "Shared memory (threads) is refused; build without the atomics target feature using the SDK's official config.",
  E_WASM_MEMORY64: 'memory64 is refused; plugins are wasm32. Build for wasm32-unknown-unknown.',
  E_WASM_MEMORY_NOT_EXPORTED:
    'The memory must be exported as "memory" (what Rust does by default); build with the SDK.',
  E_WASM_TABLE_NO_MAXIMUM:
    "Every table must declare a maximum; build with the SDK's official config (no --growable-table).",
  E_WASM_TABLE_TOO_LARGE:
    'A table may declare at most 65536 elements and a module at most 4 tables; reduce indirect calls or split the plugin.',
  E_WASM_EXPORT_MISSING:
    'The module must export harness_abi_version, harness_alloc, harness_free and harness_step; use export_plugin! from the SDK.',
  E_WASM_EXPORT_SIGNATURE:
    'Required exports have exact signatures: harness_abi_version() -> i32, harness_alloc(i32) -> i32, harness_free(i32, i32), harness_step(i32, i32) -> i64; use export_plugin! from the SDK.',
  E_WASM_ATOMICS: 'Threads and atomics are refused; build without the atomics target feature.',
  E_WASM_GC:
    'WebAssembly GC types and typed function references are refused; build for wasm32-unknown-unknown with Rust and the SDK.',
  E_WASM_EXCEPTIONS:
    'WebAssembly exception handling is refused; build with panic="abort" and without -C target-feature=+exception-handling.',
  E_WASM_LIMIT:
    "The module declares more of something than WebAssembly engines accept (V8's limits, for example 1,000,000 types or functions, 100,000 exports, 1024 custom sections here); rebuild it with the SDK's official config.",
  E_WASM_UNSUPPORTED:
    "The module uses a WebAssembly feature outside the supported set (MVP, bulk memory, sign extension, multi-value, reference types, non-trapping float-to-int, SIMD); build with the SDK's official config.",
} as const;

export type PackageErrorCode = keyof typeof PACKAGE_FIXES;

/** A refusal: `detail` says what is wrong, the code's fix sentence follows. */
export function refuse(code: PackageErrorCode, detail: string, data?: Record<string, unknown>): HarnessError {
  return new HarnessError(code, `${detail} ${PACKAGE_FIXES[code]}`, data);
}

/**
 * A JSON path as a message shows it: its keys come from the manifest, so it is bounded (a 3 MiB key must not make
 * a 3 MiB error) and its control and bidi characters are escaped.
 */
export function shownPath(path: string): string {
  const head = path.length > QUOTE_MAX_CHARS ? `${path.slice(0, QUOTE_MAX_CHARS)}… (${path.length} characters)` : path;
  return escapeControls(head, { keepLayout: false });
}

/** A manifest refusal at a JSON path such as `tools.0.name` (the root is `manifest`). */
export function refuseAt(
  code: PackageErrorCode,
  path: string,
  detail: string,
  data?: Record<string, unknown>,
): HarnessError {
  const shown = shownPath(path);
  return refuse(code, `At ${shown || 'manifest'}: ${detail}`, { ...data, path: shown });
}

const INVISIBLE_KINDS: [number, number, string][] = [
  [0x80, 0x9f, 'a C1 control character'],
  [0x200b, 0x200d, 'a zero-width character'],
  [0x200e, 0x200f, 'a bidirectional mark'],
  [0x202a, 0x202e, 'a bidirectional embedding or override'],
  [0x2066, 0x2069, 'a bidirectional isolate'],
];

/** Refuses text a person reads (at `path`) that holds a bidi control, a zero-width character or a C1 control. */
export function refuseInvisibleChar(text: string, path: string): void {
  const found = findInvisibleChar(text);
  if (!found) return;
  const label = codePointLabel(found.codePoint);
  const kind =
    INVISIBLE_KINDS.find(([from, to]) => found.codePoint >= from && found.codePoint <= to)?.[2] ??
    'an invisible character';
  throw refuseAt(
    'E_MANIFEST_INVISIBLE_CHAR',
    path,
    `the text holds ${label} (${kind}) at character ${found.index + 1}.`,
    {
      codePoint: label,
      index: found.index,
    },
  );
}
