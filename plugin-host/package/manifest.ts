// manifest.json of harness-wasm-v1 (seed 004 "字段约束"): strict, unknown keys refused, the JSON path in every
// message. Parsing goes through the strict parser (strict UTF-8, duplicate and prototype keys refused).
import { quoteUntrusted } from '../errors';
import { refuse, refuseAt, refuseInvisibleChar, type PackageErrorCode } from './codes';
import { MANIFEST_LIMITS, PACKAGE_LIMITS } from './limits';
import { checkParameters } from './schema-subset';
import { joinPath, parseStrictJson, type JsonValue } from './strict-json';

export type WorkspacePermission = 'none' | 'read' | 'read-write';

export interface ToolDeclaration {
  name: string;
  description: string;
  /** An object schema in the supported subset (see CONTEXT.md). */
  parameters: { [key: string]: JsonValue };
}

export interface Manifest {
  format_version: 1;
  id: string;
  name: string;
  version: string;
  runtime: 'harness-wasm-v1';
  entry: 'plugin.wasm';
  sha256: string;
  permissions: { workspace: WorkspacePermission; storage: boolean };
  tools: ToolDeclaration[];
}

const MANIFEST_KEYS = ['format_version', 'id', 'name', 'version', 'runtime', 'entry', 'sha256', 'permissions', 'tools'];
const PERMISSION_KEYS = ['workspace', 'storage'];
const TOOL_KEYS = ['name', 'description', 'parameters'];

const ID = /^[a-z][a-z0-9.-]*$/;
const VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;
const SHA256 = /^[0-9a-f]{64}$/;
const TOOL_NAME = /^[a-z][a-z0-9_]*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const WORKSPACE: readonly string[] = ['none', 'read', 'read-write'];

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

type JsonObject = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses and validates manifest.json (bytes as read from the package, or its text). */
export function validateManifest(source: Uint8Array | string): Manifest {
  const size = typeof source === 'string' ? byteLength(source) : source.length;
  if (size > PACKAGE_LIMITS.manifestBytes) {
    throw refuse('E_PACKAGE_ENTRY_TOO_LARGE', `manifest.json is ${size} bytes.`, {
      entry: 'manifest.json',
      limit: PACKAGE_LIMITS.manifestBytes,
    });
  }
  return checkManifest(parseStrictJson(source));
}

/** Validates an already parsed manifest value (for example one built in code before packing). */
export function checkManifest(value: JsonValue): Manifest {
  const root = expectObject(value, '', MANIFEST_KEYS);
  if (root.format_version !== 1) {
    throw refuseAt('E_MANIFEST_FORMAT_VERSION', 'format_version', `expected 1, got ${show(root.format_version)}.`);
  }
  const id = expectString(root, 'id', '', 'E_MANIFEST_ID');
  refuseInvisibleChar(id, 'id');
  if (byteLength(id) < 1 || byteLength(id) > MANIFEST_LIMITS.idBytes || !ID.test(id)) {
    throw refuseAt('E_MANIFEST_ID', 'id', `${show(id)} is not a valid plugin id.`);
  }
  const name = expectString(root, 'name', '', 'E_MANIFEST_NAME');
  // Before the control-character rule, so a C1 control gets the code that names it.
  refuseInvisibleChar(name, 'name');
  if (name.trim() === '' || byteLength(name) > MANIFEST_LIMITS.nameBytes || CONTROL.test(name)) {
    throw refuseAt('E_MANIFEST_NAME', 'name', `${show(name)} is not a valid display name.`);
  }
  const version = expectString(root, 'version', '', 'E_MANIFEST_VERSION');
  if (!VERSION.test(version) || version.split('.').some((p) => !Number.isSafeInteger(Number(p)))) {
    throw refuseAt('E_MANIFEST_VERSION', 'version', `${show(version)} is not a version like "1.0.0".`);
  }
  if (root.runtime !== 'harness-wasm-v1')
    throw refuseAt('E_MANIFEST_RUNTIME', 'runtime', `expected "harness-wasm-v1", got ${show(root.runtime)}.`);
  if (root.entry !== 'plugin.wasm')
    throw refuseAt('E_MANIFEST_ENTRY', 'entry', `expected "plugin.wasm", got ${show(root.entry)}.`);
  const sha256 = expectString(root, 'sha256', '', 'E_MANIFEST_SHA256');
  if (!SHA256.test(sha256))
    throw refuseAt('E_MANIFEST_SHA256', 'sha256', `${show(sha256)} is not 64 lowercase hex digits.`);

  const perms = expectObject(root.permissions, 'permissions', PERMISSION_KEYS);
  if (typeof perms.workspace !== 'string' || !WORKSPACE.includes(perms.workspace)) {
    throw refuseAt(
      'E_MANIFEST_PERMISSIONS',
      'permissions.workspace',
      `expected "none", "read" or "read-write", got ${show(perms.workspace)}.`,
    );
  }
  if (typeof perms.storage !== 'boolean') {
    throw refuseAt(
      'E_MANIFEST_PERMISSIONS',
      'permissions.storage',
      `expected true or false, got ${show(perms.storage)}.`,
    );
  }

  const tools = root.tools;
  if (!Array.isArray(tools))
    throw refuseAt('E_MANIFEST_TYPE', 'tools', `expected an array of tools, got ${show(tools)}.`);
  if (tools.length < MANIFEST_LIMITS.minTools || tools.length > MANIFEST_LIMITS.maxTools) {
    throw refuseAt('E_MANIFEST_TOOLS', 'tools', `the plugin declares ${tools.length} tools.`);
  }
  const names = new Set<string>();
  const checkedTools = tools.map((raw, i): ToolDeclaration => {
    const path = joinPath('tools', i);
    const tool = expectObject(raw, path, TOOL_KEYS);
    const toolName = expectString(tool, 'name', path, 'E_MANIFEST_TOOL_NAME');
    refuseInvisibleChar(toolName, joinPath(path, 'name'));
    if (byteLength(toolName) > MANIFEST_LIMITS.toolNameBytes || !TOOL_NAME.test(toolName)) {
      throw refuseAt('E_MANIFEST_TOOL_NAME', joinPath(path, 'name'), `${show(toolName)} is not a valid tool name.`);
    }
    if (names.has(toolName))
      throw refuseAt(
        'E_MANIFEST_DUPLICATE_TOOL',
        joinPath(path, 'name'),
        `the tool ${show(toolName)} is declared twice.`,
      );
    names.add(toolName);
    const description = expectString(tool, 'description', path, 'E_MANIFEST_DESCRIPTION');
    refuseInvisibleChar(description, joinPath(path, 'description'));
    if (description.trim() === '' || byteLength(description) > MANIFEST_LIMITS.descriptionBytes) {
      throw refuseAt(
        'E_MANIFEST_DESCRIPTION',
        joinPath(path, 'description'),
        `the description is empty or longer than ${MANIFEST_LIMITS.descriptionBytes} bytes.`,
      );
    }
    checkParameters(tool.parameters, joinPath(path, 'parameters'));
    return { name: toolName, description, parameters: tool.parameters as JsonObject };
  });

  return {
    format_version: 1,
    id,
    name,
    version,
    runtime: 'harness-wasm-v1',
    entry: 'plugin.wasm',
    sha256,
    permissions: { workspace: perms.workspace as WorkspacePermission, storage: perms.storage },
    tools: checkedTools,
  };
}

/** An object with exactly the allowed keys, all present: unknown keys first, then missing ones. */
function expectObject(value: JsonValue | undefined, path: string, allowed: string[]): JsonObject {
  if (!isObject(value)) throw refuseAt('E_MANIFEST_TYPE', path, `expected a JSON object, got ${show(value)}.`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw refuseAt('E_MANIFEST_UNKNOWN_KEY', joinPath(path, key), `unknown key ${show(key)}.`, { key: clip(key) });
  }
  for (const key of allowed) {
    if (!Object.hasOwn(value, key))
      throw refuseAt('E_MANIFEST_MISSING_FIELD', joinPath(path, key), `the field is missing.`, { key });
  }
  return value;
}

function expectString(obj: JsonObject, key: string, path: string, code: PackageErrorCode): string {
  const v = obj[key];
  if (typeof v !== 'string') throw refuseAt(code, joinPath(path, key), `expected a string, got ${show(v)}.`);
  return v;
}

/** A manifest value inside a message: a bounded, escaped quote of a string, never a serialised object. */
function show(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object' && v !== null) return 'an object';
  return quoteUntrusted(v);
}

const clip = (key: string) => (key.length > 200 ? key.slice(0, 200) : key);
