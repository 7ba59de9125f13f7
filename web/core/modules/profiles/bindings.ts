// Bindings (seed 000 §1, bindings.json): a module replaced by a bridge worker, e.g.
// `{"compact": {"exec": ["/abs/worker"], "cwd": "/abs/config"}}`. A binding replaces every hook/tool entry of that
// module and keeps the tools' public schemas; if the worker fails there is NO fallback to the built-in module.
// Bindings never replace core tools (read, write, edit, glob, search, view_image) or security checks (path policy,
// approval gate, transport checks): only module names, plus `provider`, can be bound. This is the data model and
// its validation; execution goes through the bridge client.
import { HarnessError } from '../../contracts';
import { CORE_TOOL_NAMES } from '../../tools';
import { enabledModules, isModuleName, MODULE_NAMES, type ModuleName, type ProfileSelection } from './profiles';

/**
 * `{exec, cwd}`: a program headless `i` runs through its private i-bridge (bindings.json). `{worker: "bridge"}`: the
 * app's form — the paired i-bridge serves the module from its own manifest (the app starts no programs).
 */
export type WorkerBinding = { exec: string[]; cwd?: string } | { worker: 'bridge' };

export type BindingKey = ModuleName | 'provider';
export type Bindings = Partial<Record<BindingKey, WorkerBinding>>;

/** How one enabled module runs: the built-in implementation or a bridge worker (no fallback on failure). */
export type ModulePlan =
  | { module: ModuleName; runs: 'builtin' }
  | { module: ModuleName; runs: 'bridge'; binding: WorkerBinding; fallback: false };

export const MAX_EXEC_ARGS = 64;
export const MAX_EXEC_ARG_CHARS = 4096;

const fail = (at: string, message: string) => new HarnessError('E_BINDING_INVALID', `At ${at}: ${message}`, { at });

const isAbsolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');

export function validateBindings(value: unknown, at = 'bindings.json'): Bindings {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail(at, 'expected an object mapping module names to {"exec": [...], "cwd": "..."}.');
  const out: Bindings = {};
  for (const [key, raw] of Object.entries(value)) {
    const here = `${at}.${key}`;
    if ((CORE_TOOL_NAMES as readonly string[]).includes(key) && key !== 'search') {
      throw new HarnessError(
        'E_BINDING_CORE',
        `At ${here}: "${key}" is a core tool; bindings never replace core tools or security checks. Remove this entry.`,
        { at: here },
      );
    }
    if (key !== 'provider' && !isModuleName(key))
      throw fail(here, `"${key}" is not a module. Bindable: ${MODULE_NAMES.join(', ')}, provider.`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw fail(here, 'expected {"exec": [...], "cwd": "..."}.');
    const b = raw as Record<string, unknown>;
    for (const k of Object.keys(b))
      if (k !== 'exec' && k !== 'cwd') throw fail(`${here}.${k}`, 'unknown key; only "exec" and "cwd" are allowed.');
    if (!Array.isArray(b.exec) || b.exec.length === 0 || b.exec.length > MAX_EXEC_ARGS)
      throw fail(`${here}.exec`, `expected an argv array of 1–${MAX_EXEC_ARGS} strings.`);
    b.exec.forEach((arg, i) => {
      if (typeof arg !== 'string' || arg.length === 0 || arg.length > MAX_EXEC_ARG_CHARS || arg.includes('\u0000')) {
        throw fail(
          `${here}.exec.${i}`,
          `expected a non-empty string of at most ${MAX_EXEC_ARG_CHARS} characters without NUL.`,
        );
      }
    });
    const binding: { exec: string[]; cwd?: string } = { exec: [...(b.exec as string[])] };
    if (b.cwd !== undefined) {
      if (typeof b.cwd !== 'string' || !isAbsolute(b.cwd) || b.cwd.split(/[\\/]/).includes('..'))
        throw fail(`${here}.cwd`, 'expected an absolute path without "..".');
      binding.cwd = b.cwd;
    }
    out[key as BindingKey] = binding;
  }
  return out;
}

/** One plan entry per enabled module; bound modules run in the bridge with no fallback. */
export function planModules(selection: ProfileSelection, bindings: Bindings = {}): ModulePlan[] {
  return enabledModules(selection).map((module) => {
    const binding = bindings[module];
    return binding ? { module, runs: 'bridge', binding, fallback: false } : { module, runs: 'builtin' };
  });
}

/**
 * Settings → Agent's bindings: `{"<module>": {"worker": "bridge"}}`, a module served by the paired i-bridge's
 * manifest entries (its tools by name, its hook events). `{"exec"}` starts a program, which only headless `i` does;
 * `web` (web_fetch is the bridge's own) and `search` (nothing to replace) cannot be bound.
 */
export function validateAppBindings(value: unknown, at: string): Bindings {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail(at, 'expected an object like {"memory": {"worker": "bridge"}}.');
  const out: Bindings = {};
  for (const [key, raw] of Object.entries(value)) {
    const here = `${at}.${key}`;
    if (!isModuleName(key))
      throw fail(
        here,
        `"${key}" is not a module. Bindable: ${MODULE_NAMES.filter((m) => m !== 'web' && m !== 'search').join(', ')}.`,
      );
    if (key === 'web' || key === 'search')
      throw new HarnessError(
        'E_BINDING_UNSUPPORTED',
        `At ${here}: the ${key} module cannot run on a worker (${key === 'web' ? "web_fetch is i-bridge's own tool" : 'it has nothing to replace'}). Remove this binding.`,
        { at: here },
      );
    const b = raw as Record<string, unknown> | null;
    if (typeof b === 'object' && b !== null && 'exec' in b)
      throw fail(
        here,
        '{"exec": [...]} starts a program, which only headless i does. In the app, put the worker in the paired i-bridge\'s manifest and use {"worker": "bridge"}.',
      );
    if (typeof b !== 'object' || b === null || Object.keys(b).length !== 1 || b.worker !== 'bridge')
      throw fail(here, 'expected {"worker": "bridge"}.');
    out[key] = { worker: 'bridge' };
  }
  return out;
}
