// A real i-bridge (node bin/i-bridge.js) for the e2e specs: a temporary --root and I_*_DIRs, the example manifest,
// the given --allow-origin values; resolves once it printed its URL and pairing code. `stop` ends it like a person
// would (SIGTERM, SIGKILL after 3 s) and removes its temporary folders.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');

export interface BridgeProcess {
  url: string;
  code: string;
  /** The bridge's only root (the folder tool calls run in). */
  root: string;
  stop(): Promise<void>;
}

/** `manifest`: another desktop manifest than the example one (absolute path). */
export async function startBridgeProcess(
  allowOrigins: string[],
  manifest = join(REPO, 'bridge/examples/desktop.json'),
): Promise<BridgeProcess> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'e2e-bridge-')));
  const root = join(base, 'project');
  mkdirSync(root);
  const env = {
    PATH: process.env.PATH,
    I_CONFIG_DIR: join(base, 'config'),
    I_DATA_DIR: join(base, 'data'),
    I_CACHE_DIR: join(base, 'cache'),
    I_RUNTIME_DIR: join(base, 'runtime'),
  };
  const args = [
    join(REPO, 'bin/i-bridge.js'),
    '--port',
    '0',
    '--root',
    root,
    '--manifest',
    manifest,
    ...allowOrigins.flatMap((o) => ['--allow-origin', o]),
  ];
  const child = spawn(process.execPath, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(base, { recursive: true, force: true });
  };
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 15_000;
  while (!/Pairing code: \S+/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`i-bridge did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!,
    code: /Pairing code: (\S+)/.exec(out)![1]!,
    root,
    stop,
  };
}
