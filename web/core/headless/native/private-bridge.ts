// Headless `i` runs native workers (seed 000 §1–§2) through a private child `i-bridge`: the built CLI next to the
// running one (dist/cli/i-bridge.js), on a free loopback port, rooted at the workspace, with a generated manifest
// and its own temporary I_RUNTIME_DIR, whose bridge.json gives the URL and the local token. The other I_*_DIRs are
// the person's, so workers see the same config/data/cache folders as everywhere else.
// It reads none of the person's bridge settings (--no-settings: no MCP servers or origins from bridge.json join a
// run that never asked for them), keeps the config's io_limit_bytes of each worker's stderr, and holds a stdin pipe
// that i never closes (--exit-with-stdin): if i dies, even by SIGKILL, the bridge sees end of file and stops with
// its workers. It is stopped when the run ends (SIGTERM: the bridge kills its worker groups), also on process exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../../contracts';

export interface PrivateBridge {
  url: string;
  token: string;
  pid: number;
  /** Stops the bridge and its workers; waits for it to exit (SIGKILL after a grace period). Idempotent. */
  stop(): Promise<void>;
}

export interface PrivateBridgeOptions {
  workspace: string;
  /** The generated desktop manifest (written to the bridge's temporary folder). */
  manifest: Record<string, unknown>;
  env: Record<string, string | undefined>;
  /** Stderr bytes kept per worker (the model config's io_limit_bytes). */
  ioLimitBytes?: number;
  /** The i-bridge script; defaults to the one next to the running CLI. */
  script?: string;
  /** How long to wait for bridge.json. */
  startTimeoutMs?: number;
}

const STOP_GRACE_MS = 5_000;

/** dist/cli/i-bridge.js beside the bundled i.js; from the source tree (tests, dev), the repository's dist/cli. */
export function findBridgeScript(): string | undefined {
  const fromSource = import.meta.url.endsWith('.ts');
  const candidates = [
    fromSource
      ? new URL('../../../../dist/cli/i-bridge.js', import.meta.url)
      : new URL('./i-bridge.js', import.meta.url),
  ];
  for (const c of candidates) {
    if (c.protocol !== 'file:') continue;
    const file = fileURLToPath(c);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The private bridge's arguments: a free port, the workspace as its only root, the generated manifest. */
export function privateBridgeArgs(workspace: string, manifestFile: string, ioLimitBytes: number | undefined): string[] {
  return [
    '--port',
    '0',
    '--root',
    workspace,
    '--manifest',
    manifestFile,
    '--no-settings',
    '--exit-with-stdin',
    ...(ioLimitBytes !== undefined ? ['--io-limit-bytes', String(ioLimitBytes)] : []),
  ];
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export async function startPrivateBridge(options: PrivateBridgeOptions): Promise<PrivateBridge> {
  const script = options.script ?? findBridgeScript();
  if (!script || !existsSync(script)) {
    throw new HarnessError(
      'E_BRIDGE_MISSING',
      'The model config names native workers ("plugins" or "provider"), which headless i runs through i-bridge, and i-bridge is not built next to i. Run "npm run build:cli" in the i repository (or reinstall i), then try again.',
      { script: script ?? 'dist/cli/i-bridge.js' },
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'i-native-'));
  const runtimeDir = join(dir, 'runtime');
  const manifestFile = join(dir, 'manifest.json');
  await fsp.writeFile(manifestFile, JSON.stringify(options.manifest), { mode: 0o600 });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  env.I_RUNTIME_DIR = runtimeDir;
  delete env.NODE_OPTIONS;
  const child = spawn(
    process.execPath,
    [script, ...privateBridgeArgs(options.workspace, manifestFile, options.ioLimitBytes)],
    {
      cwd: options.workspace,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  // Never written to and never ended before stop(): its end of file is the bridge's signal that i is gone.
  child.stdin!.on('error', () => undefined);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8192);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('error', (e) => keep(Buffer.from(`\nerror E_SPAWN: ${e.message}\n`)));

  const onExit = () => {
    if (!exited(child)) child.kill('SIGTERM');
  };
  process.on('exit', onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', onExit);
      if (!exited(child) && child.pid !== undefined) {
        const gone = new Promise<void>((r) => child.once('exit', () => r()));
        child.stdin?.end();
        child.kill('SIGTERM');
        const timer = new Promise<boolean>((r) => setTimeout(() => r(false), STOP_GRACE_MS).unref());
        if ((await Promise.race([gone.then(() => true), timer])) === false) {
          child.kill('SIGKILL');
          await gone;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  const bridgeFile = join(runtimeDir, 'bridge.json');
  for (;;) {
    if (exited(child) || child.pid === undefined) {
      await stop();
      const line = /error (E_[A-Z0-9_]+): (.*)/.exec(output);
      throw new HarnessError(
        line?.[1] ?? 'E_BRIDGE_START',
        `i-bridge (native workers of the model config) did not start: ${line?.[2] ?? output.trim().slice(-500)}`,
        { output: output.slice(-2000) },
      );
    }
    try {
      const content = JSON.parse(await fsp.readFile(bridgeFile, 'utf8')) as {
        url?: unknown;
        token?: unknown;
        pid?: unknown;
      };
      if (content.pid === child.pid && typeof content.url === 'string' && typeof content.token === 'string') {
        return { url: content.url, token: content.token, pid: child.pid, stop };
      }
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new HarnessError(
        'E_BRIDGE_START',
        `i-bridge (native workers of the model config) did not report its address in time. Its output: ${output.trim().slice(-500)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
