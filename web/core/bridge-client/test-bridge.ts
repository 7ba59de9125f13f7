// Node test kit (not exported from index.ts): a real i-bridge process, bundled from bridge/cli.ts like the published
// CLI, with the example manifest, one temporary root and temporary I_*_DIRs. `stop()` kills it and waits.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const REPO = resolve(import.meta.dirname, '../../..');

export interface TestBridge {
  url: string;
  code: string;
  root: string;
  stop(): Promise<void>;
}

/** `manifest`: another desktop manifest than the example one (absolute path). */
export async function startTestBridge(
  allowOrigins: string[] = [],
  manifest = join(REPO, 'bridge/examples/desktop.json'),
): Promise<TestBridge> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'bridge-client-')));
  const root = join(base, 'root');
  const bundle = join(base, 'i-bridge.mjs');
  await build({
    entryPoints: [join(REPO, 'bridge/cli.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
    absWorkingDir: REPO,
  });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(root);
  const env = {
    PATH: process.env.PATH,
    I_CONFIG_DIR: join(base, 'config'),
    I_DATA_DIR: join(base, 'data'),
    I_CACHE_DIR: join(base, 'cache'),
    I_RUNTIME_DIR: join(base, 'runtime'),
  };
  const args = [
    bundle,
    '--port',
    '0',
    '--manifest',
    manifest,
    '--root',
    root,
    ...allowOrigins.flatMap((o) => ['--allow-origin', o]),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(base, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!/Pairing code: \S+/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`i-bridge did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
  const code = /Pairing code: (\S+)/.exec(out)![1]!;
  return { url, code, root, stop };
}
