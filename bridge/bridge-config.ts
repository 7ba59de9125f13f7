// The bridge's own settings file, `<config_dir>/bridge.json`. Strict: an unknown key is an error with its path,
// so a typo never silently widens or narrows what the bridge allows. Every field is optional.
//
// {
//   "allow_origins": ["https://i.example"],          exact browser origins allowed to call the bridge
//   "proxy_origins": ["https://api.openai.com"],     upstreams /v1/proxy may reach (provider base URL origins)
//   "web_fetch": {"enabled": true, "allow_private": false},
//   "mcp_servers": {"files": {"command": ["npx", "some-mcp-server"], "cwd": "."}},
//   "io_limit_bytes": 1048576,
//   "manifest": "desktop.json"                       relative to the config file
// }
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BridgeError } from './errors';
import { MAX_IO_LIMIT_BYTES, MIN_IO_LIMIT_BYTES } from './limits';

export interface McpServerConfig {
  command: string[];
  cwd: string;
}

export interface BridgeSettings {
  allowOrigins: string[];
  proxyOrigins: string[];
  webFetch: { enabled: boolean; allowPrivate: boolean };
  mcpServers: Record<string, McpServerConfig>;
  ioLimitBytes: number | undefined;
  manifest: string | undefined;
}

const fail = (at: string, what: string): never => {
  throw new BridgeError('E_CONFIG_INVALID', `At ${at}: ${what}`);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, allowed: string[], at: string) => {
  for (const k of Object.keys(v))
    if (!allowed.includes(k)) fail(`${at}.${k}`, `unknown field. Allowed: ${allowed.join(', ')}.`);
};

/** `https://host[:port]` exactly as URL.origin spells it; paths, queries and wildcards are refused. */
export function normaliseOrigin(value: unknown, at: string): string {
  if (typeof value !== 'string') return fail(at, 'expected an origin string such as "https://i.example".');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(at, `"${value}" is not a URL origin such as "https://i.example".`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value.replace(/\/$/, '')) {
    fail(at, `"${value}" must be a bare http(s) origin (scheme, host, optional port; no path).`);
  }
  return url.origin;
}

const stringList = (v: unknown, at: string): string[] => {
  if (!Array.isArray(v)) return fail(at, 'expected an array of strings.');
  return v.map((x, i) => normaliseOrigin(x, `${at}.${i}`));
};

export function parseBridgeSettings(raw: unknown, baseDir: string): BridgeSettings {
  const settings: BridgeSettings = {
    allowOrigins: [],
    proxyOrigins: [],
    webFetch: { enabled: true, allowPrivate: false },
    mcpServers: {},
    ioLimitBytes: undefined,
    manifest: undefined,
  };
  if (!isObject(raw)) return fail('bridge.json', 'expected a JSON object.');
  onlyKeys(
    raw,
    ['allow_origins', 'proxy_origins', 'web_fetch', 'mcp_servers', 'io_limit_bytes', 'manifest'],
    'bridge.json',
  );
  if (raw.allow_origins !== undefined) settings.allowOrigins = stringList(raw.allow_origins, 'allow_origins');
  if (raw.proxy_origins !== undefined) settings.proxyOrigins = stringList(raw.proxy_origins, 'proxy_origins');
  if (raw.web_fetch !== undefined) {
    if (!isObject(raw.web_fetch)) fail('web_fetch', 'expected {enabled, allow_private}.');
    const w = raw.web_fetch as Record<string, unknown>;
    onlyKeys(w, ['enabled', 'allow_private'], 'web_fetch');
    for (const k of ['enabled', 'allow_private'] as const)
      if (w[k] !== undefined && typeof w[k] !== 'boolean') fail(`web_fetch.${k}`, 'expected true or false.');
    settings.webFetch = {
      enabled: (w.enabled as boolean | undefined) ?? true,
      allowPrivate: (w.allow_private as boolean | undefined) ?? false,
    };
  }
  if (raw.mcp_servers !== undefined) {
    if (!isObject(raw.mcp_servers)) fail('mcp_servers', 'expected an object of name → {command, cwd}.');
    for (const [name, value] of Object.entries(raw.mcp_servers as Record<string, unknown>)) {
      const at = `mcp_servers.${name}`;
      if (!/^[A-Za-z0-9-]{1,32}$/.test(name)) fail(at, 'server names are 1–32 ASCII letters, digits or "-".');
      if (!isObject(value)) fail(at, 'expected {command, cwd}.');
      const v = value as Record<string, unknown>;
      onlyKeys(v, ['command', 'cwd'], at);
      if (
        !Array.isArray(v.command) ||
        v.command.length === 0 ||
        !v.command.every((a) => typeof a === 'string' && a !== '')
      ) {
        fail(`${at}.command`, 'expected a non-empty argv array of strings.');
      }
      if (v.cwd !== undefined && typeof v.cwd !== 'string') fail(`${at}.cwd`, 'expected a string path.');
      settings.mcpServers[name] = {
        command: v.command as string[],
        cwd: resolve(baseDir, (v.cwd as string | undefined) ?? '.'),
      };
    }
  }
  if (raw.io_limit_bytes !== undefined) {
    if (
      typeof raw.io_limit_bytes !== 'number' ||
      !Number.isInteger(raw.io_limit_bytes) ||
      raw.io_limit_bytes < MIN_IO_LIMIT_BYTES ||
      raw.io_limit_bytes > MAX_IO_LIMIT_BYTES
    ) {
      fail(
        'io_limit_bytes',
        `expected an integer from ${MIN_IO_LIMIT_BYTES} to ${MAX_IO_LIMIT_BYTES} (the same bounds as --io-limit-bytes).`,
      );
    }
    settings.ioLimitBytes = raw.io_limit_bytes as number;
  }
  if (raw.manifest !== undefined) {
    if (typeof raw.manifest !== 'string' || raw.manifest === '') fail('manifest', 'expected a path string.');
    settings.manifest = resolve(baseDir, raw.manifest as string);
  }
  return settings;
}

/** Reads `<configDir>/bridge.json`; a missing file means defaults. */
export function loadBridgeSettings(configDir: string): BridgeSettings {
  const file = resolve(configDir, 'bridge.json');
  try {
    if (statSync(file).size > 1024 * 1024) fail('bridge.json', 'the file is larger than 1 MiB.');
  } catch (error) {
    if (BridgeError.isInstance(error)) throw error;
    return parseBridgeSettings({}, configDir);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BridgeError(
      'E_CONFIG_UNREADABLE',
      `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Make it a readable JSON file, or remove it to use the defaults.`,
      { path: file },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new BridgeError('E_CONFIG_INVALID', `${file} is not valid JSON (${(error as Error).message}). Fix the file.`);
  }
  try {
    return parseBridgeSettings(raw, dirname(file));
  } catch (error) {
    // "At mcp_servers.x.command: ..." alone does not say which file: --config-dir or I_CONFIG_DIR may point anywhere.
    if (BridgeError.isInstance(error) && error.code === 'E_CONFIG_INVALID') {
      throw new BridgeError(error.code, `${error.message} Fix it in ${file}.`, { path: file });
    }
    throw error;
  }
}
