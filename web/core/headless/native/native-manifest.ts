// The manifest the private i-bridge runs: the model config's `plugins` desktop manifest (seed 000 §1: tools, hooks,
// provider with exec argv + cwd) plus the config's explicit `provider` binding, which wins over the manifest's.
// The generated file lives elsewhere, so every entry gets an absolute cwd: the manifest's folder by default, a
// relative cwd resolved from it; a relative `provider.cwd` of the config resolves from the config file's folder.
// Everything else is passed through untouched: the bridge validates the manifest strictly and names the path.
import { promises as fsp } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ModelConfig } from '../../config';
import type { BoundEntries } from '../../modules';
import { HarnessError } from '../../contracts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Seed 000 §1 caps a manifest like the bridge does (it refuses larger files too). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface NativeManifest {
  manifest: Obj;
  /** Whether a provider worker is configured (explicit binding or the manifest's). */
  hasProvider: boolean;
  /** The plugins manifest file, absolute, if any. */
  pluginsFile: string | null;
}

function absoluteCwd(entry: Obj, base: string): Obj {
  const cwd = entry.cwd;
  if (cwd === undefined) return { ...entry, cwd: base };
  if (typeof cwd !== 'string') return entry; // the bridge names the path
  return { ...entry, cwd: isAbsolute(cwd) ? cwd : resolve(base, cwd) };
}

/**
 * Reads `plugins` (relative to the config file's folder) and applies the `provider` binding; `bound` adds the modules
 * bindings.json gives to workers (their tools and hooks, after the manifest's own; modules/node-bound-modules.ts).
 */
export async function buildNativeManifest(
  config: Pick<ModelConfig, 'plugins' | 'provider'>,
  configFile: string,
  bound?: BoundEntries,
): Promise<NativeManifest> {
  const configDir = dirname(configFile);
  let manifest: Obj = {};
  let pluginsFile: string | null = null;
  if (config.plugins) {
    pluginsFile = resolve(configDir, config.plugins);
    let text: string;
    try {
      const stat = await fsp.stat(pluginsFile);
      if (stat.size > MAX_MANIFEST_BYTES)
        throw new HarnessError(
          'E_MANIFEST_INVALID',
          `The plugins manifest ${pluginsFile} is larger than ${MAX_MANIFEST_BYTES} bytes.`,
          { file: pluginsFile },
        );
      text = await fsp.readFile(pluginsFile, 'utf8');
    } catch (error) {
      if (HarnessError.isInstance(error)) throw error;
      throw new HarnessError(
        'E_MANIFEST_UNREADABLE',
        `Cannot read the plugins manifest ${pluginsFile} ("plugins" in ${configFile}, relative to its folder). Check the path.`,
        { file: pluginsFile },
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new HarnessError(
        'E_MANIFEST_INVALID',
        `The plugins manifest ${pluginsFile} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
        { file: pluginsFile },
      );
    }
    if (!isObj(raw))
      throw new HarnessError(
        'E_MANIFEST_INVALID',
        `The plugins manifest ${pluginsFile} must be a JSON object with tools, hooks and provider.`,
        { file: pluginsFile },
      );
    const base = dirname(pluginsFile);
    manifest = { ...raw };
    for (const key of ['tools', 'hooks'] as const) {
      if (Array.isArray(raw[key]))
        manifest[key] = (raw[key] as unknown[]).map((e) => (isObj(e) ? absoluteCwd(e, base) : e));
    }
    if (isObj(raw.provider)) manifest.provider = absoluteCwd(raw.provider, base);
  }
  if (bound?.tools.length)
    manifest.tools = [
      ...(Array.isArray(manifest.tools) ? manifest.tools : []),
      ...bound.tools.map(({ module: _module, ...entry }) => entry),
    ];
  if (bound?.hooks.length)
    manifest.hooks = [
      ...(Array.isArray(manifest.hooks) ? manifest.hooks : []),
      ...bound.hooks.map(({ module: _module, ...entry }) => entry),
    ];
  const binding = config.provider;
  if (binding) {
    if (!('exec' in binding)) {
      throw new HarnessError(
        'E_CONFIG_UNSUPPORTED',
        `At provider: {"worker": "${binding.worker}"} names a worker of the app's paired bridge; headless i starts the program itself. Use {"exec": [...], "cwd": "..."} in ${configFile}.`,
        { path: 'provider' },
      );
    }
    manifest.provider = {
      exec: binding.exec,
      cwd: binding.cwd === undefined ? configDir : resolve(configDir, binding.cwd),
    };
  }
  return { manifest, hasProvider: manifest.provider !== undefined, pluginsFile };
}
