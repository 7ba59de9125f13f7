// Desktop manifest (seed 000 §1): tools, hooks and an optional provider binding. Loading it is a trust decision
// made by the person who runs the bridge; the network only ever names entries by tool name or hook event.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BridgeError } from './errors';
import type { PublicManifest, PublicTool } from './protocol';
import { resolveCwd, resolveExec, type ResolvedExec } from './resolve-exec';

export interface ManifestTool extends ResolvedExec {
  tool: PublicTool;
}

export interface ManifestHook extends ResolvedExec {
  events: string[];
}

export interface Manifest {
  tools: ManifestTool[];
  hooks: ManifestHook[];
  provider: ResolvedExec | undefined;
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Names the bridge serves itself or derives for MCP tools; a manifest may not shadow them. */
export const isReservedToolName = (name: string): boolean => name === 'web_fetch' || name.startsWith('mcp__');

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

const fail = (at: string, what: string): never => {
  throw new BridgeError('E_MANIFEST_INVALID', `At ${at}: ${what}`);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function onlyKeys(value: Record<string, unknown>, allowed: string[], at: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(`${at}.${key}`, `unknown field. Allowed: ${allowed.join(', ')}.`);
  }
}

function readExec(entry: Record<string, unknown>, baseDir: string, at: string): ResolvedExec {
  const exec = entry.exec;
  if (!Array.isArray(exec) || exec.length === 0 || !exec.every((a) => typeof a === 'string') || exec[0] === '') {
    fail(`${at}.exec`, 'expected a non-empty argv array of strings (no shell line).');
  }
  if ((exec as string[]).some((a) => a.includes('\0'))) fail(`${at}.exec`, 'arguments may not contain NUL bytes.');
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string') fail(`${at}.cwd`, 'expected a string path.');
  const cwd = resolveCwd(entry.cwd as string | undefined, baseDir, at);
  return resolveExec(exec as string[], cwd, at);
}

/**
 * The shape a model API needs of an object schema's own keywords: `properties` an object of schemas, `required`
 * a list of names. Providers reject a malformed tool schema for the whole request, so it is refused here, at start.
 */
function checkObjectSchema(schema: Record<string, unknown>, at: string): void {
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) fail(`${at}.properties`, 'expected an object of property name → schema.');
    for (const [key, value] of Object.entries(schema.properties as Record<string, unknown>)) {
      if (!isObject(value) && typeof value !== 'boolean')
        fail(`${at}.properties.${key}`, 'expected a JSON schema object.');
    }
  }
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === 'string'))
  ) {
    fail(`${at}.required`, 'expected an array of property names.');
  }
}

/** Validates a parsed manifest; `baseDir` is the manifest's folder (the default cwd). */
export function parseManifest(raw: unknown, baseDir: string): Manifest {
  if (!isObject(raw)) fail('manifest', 'expected a JSON object with tools, hooks and provider.');
  const root = raw as Record<string, unknown>;
  onlyKeys(root, ['tools', 'hooks', 'provider'], 'manifest');
  const tools: ManifestTool[] = [];
  const seen = new Set<string>();
  const rawTools = root.tools ?? [];
  if (!Array.isArray(rawTools)) fail('tools', 'expected an array.');
  (rawTools as unknown[]).forEach((t, i) => {
    const at = `tools.${i}`;
    if (!isObject(t)) fail(at, 'expected an object.');
    const entry = t as Record<string, unknown>;
    onlyKeys(entry, ['name', 'description', 'parameters', 'exec', 'cwd', 'module'], at);
    const name = entry.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      fail(`${at}.name`, 'expected 1–64 ASCII letters, digits, "-" or "_".');
    if (isReservedToolName(name as string))
      fail(`${at}.name`, `"${String(name)}" is reserved by the bridge. Rename the tool.`);
    if (seen.has(name as string)) fail(`${at}.name`, `"${String(name)}" is declared twice. Tool names must be unique.`);
    seen.add(name as string);
    if (entry.description !== undefined && typeof entry.description !== 'string')
      fail(`${at}.description`, 'expected a string.');
    const parameters = entry.parameters ?? { type: 'object', properties: {} };
    if (!isObject(parameters) || parameters.type !== 'object')
      fail(`${at}.parameters`, 'expected a JSON schema with "type": "object".');
    checkObjectSchema(parameters as Record<string, unknown>, `${at}.parameters`);
    if (entry.module !== undefined && typeof entry.module !== 'string') fail(`${at}.module`, 'expected a string.');
    const exec = readExec(entry, baseDir, at);
    tools.push({
      ...exec,
      tool: {
        name: name as string,
        description: (entry.description as string | undefined) ?? '',
        parameters: parameters as Record<string, unknown>,
      },
    });
  });
  const hooks: ManifestHook[] = [];
  const rawHooks = root.hooks ?? [];
  if (!Array.isArray(rawHooks)) fail('hooks', 'expected an array.');
  (rawHooks as unknown[]).forEach((h, i) => {
    const at = `hooks.${i}`;
    if (!isObject(h)) fail(at, 'expected an object.');
    const entry = h as Record<string, unknown>;
    onlyKeys(entry, ['events', 'exec', 'cwd', 'module'], at);
    const events = entry.events;
    if (
      !Array.isArray(events) ||
      events.length === 0 ||
      !events.every((e) => typeof e === 'string' && /^([a-z_]{1,64}|\*)$/.test(e))
    ) {
      fail(`${at}.events`, 'expected a non-empty array of event names (lower_snake_case) or "*".');
    }
    hooks.push({ ...readExec(entry, baseDir, at), events: events as string[] });
  });
  let provider: ResolvedExec | undefined;
  if (root.provider !== undefined) {
    if (!isObject(root.provider)) fail('provider', 'expected {exec, cwd}.');
    const entry = root.provider as Record<string, unknown>;
    onlyKeys(entry, ['exec', 'cwd', 'module'], 'provider');
    provider = readExec(entry, baseDir, 'provider');
  }
  return { tools, hooks, provider };
}

export const MANIFEST_OPTION = 'the --manifest path';

/**
 * `source` says where the path came from (default: the --manifest option, which the person typed). A manifest the
 * bridge found by itself (bridge.json's "manifest", <config_dir>/desktop.json) is named in entry errors too.
 */
export function loadManifest(file: string, source = MANIFEST_OPTION): Manifest {
  const path = resolve(file);
  let text: string;
  try {
    const buf = readFileSync(path);
    if (buf.byteLength > MAX_MANIFEST_BYTES) fail('manifest', `the file is larger than ${MAX_MANIFEST_BYTES} bytes.`);
    text = buf.toString('utf8');
  } catch (error) {
    if (BridgeError.isInstance(error)) throw error;
    throw new BridgeError(
      'E_MANIFEST_UNREADABLE',
      `Cannot read the manifest ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}). Check ${source}.`,
      { path },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new BridgeError(
      'E_MANIFEST_INVALID',
      `The manifest ${path} is not valid JSON (${(error as Error).message}). Fix the file.`,
      { path },
    );
  }
  try {
    return parseManifest(raw, dirname(path));
  } catch (error) {
    // "At tools.2.exec.0: ..." alone does not say which file the bridge picked.
    if (source !== MANIFEST_OPTION && BridgeError.isInstance(error) && error.code === 'E_MANIFEST_INVALID')
      throw new BridgeError(error.code, `${error.message} Fix it in ${path}.`, { path });
    throw error;
  }
}

export const emptyManifest = (): Manifest => ({ tools: [], hooks: [], provider: undefined });

/** What `GET /v1/manifest` shows: public schemas and hook events, never exec or cwd. */
export function publicManifest(manifest: Manifest, extraTools: PublicTool[] = []): PublicManifest {
  return {
    tools: [...manifest.tools.map((t) => t.tool), ...extraTools],
    hooks: manifest.hooks.map((h) => ({ events: [...h.events] })),
    provider: manifest.provider !== undefined,
  };
}
