import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from './cli-args';
import { json, send } from './fixtures/http';
import { fixturesDir, isAlive, tempDirs, waitFor } from './fixtures/support';
import type { PathContext } from './protocol';

describe('i-bridge arguments', () => {
  it('parses repeatable options and refuses unknown ones', () => {
    expect(parseCliArgs(['--port', '0', '--root', '/a', '--root=/b', '--allow-origin', 'https://x.example', '--manifest', 'm.json', '--config-dir', '/c'])).toEqual({
      help: false, port: 0, manifest: 'm.json', allowOrigins: ['https://x.example'], roots: ['/a', '/b'], configDir: '/c',
    });
    expect(() => parseCliArgs(['--host', '0.0.0.0'])).toThrow(/Unknown argument/);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--root'])).toThrow(/needs a value/);
  });

  it('documents every option and endpoint in --help', () => {
    for (const word of ['--port', '--manifest', '--allow-origin', '--root', '--config-dir', '/v1/pair', '/v1/status', '/v1/manifest', '/v1/tools/call', '/v1/hooks/run', '/v1/provider/prepare', '/v1/proxy', 'bridge.json', 'I_RUNTIME_DIR', 'pair the app again', 'stdin closes']) {
      expect(USAGE).toContain(word);
    }
  });
});

let bundle: string;
beforeAll(async () => {
  bundle = join(tempDirs().root, 'i-bridge.mjs');
  // The bundle carries its dependencies, like the published CLI resolves them from node_modules.
  await build({ entryPoints: [join(fixturesDir, '..', 'cli.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }, logLevel: 'silent', absWorkingDir: join(fixturesDir, '..', '..') });
}, 30_000);

/** Starts the built i-bridge and waits for its banner. */
async function startCli(root: string, dirs: PathContext, manifest: string): Promise<{ child: ChildProcess; url: string; token: string; out: () => string }> {
  const env = { PATH: process.env.PATH, I_CONFIG_DIR: dirs.config_dir, I_DATA_DIR: dirs.data_dir, I_CACHE_DIR: dirs.cache_dir, I_RUNTIME_DIR: dirs.runtime_dir };
  const child = spawn(process.execPath, [bundle, '--port', '0', '--manifest', manifest, '--root', root], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  if (!(await waitFor(() => /Pairing code: [A-Z2-9]{4}-[A-Z2-9]{4}/.test(out) && out.includes('Roots:'), 10_000))) {
    child.kill('SIGKILL');
    throw new Error(`i-bridge did not start:\n${out}`);
  }
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
  const { token } = JSON.parse(readFileSync(join(dirs.runtime_dir, 'bridge.json'), 'utf8')) as { token: string };
  return { child, url, token, out: () => out };
}

describe('i-bridge process', () => {
  it('prints its URL and pairing code, and on SIGTERM leaves no worker, grandchild or bridge file', async () => {
    const { root, dirs } = tempDirs();
    const manifest = join(root, 'desktop.json');
    writeFileSync(manifest, JSON.stringify({ tools: [{ name: 'hang', parameters: { type: 'object' }, exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'hang'] }] }));
    const { child, url, token } = await startCli(root, dirs, manifest);
    const file = join(dirs.runtime_dir, 'bridge.json');
    try {
      const res = await send(url, '/v1/tools/call', { method: 'POST', headers: json(token), body: JSON.stringify({ name: 'hang', arguments: {}, workspace: root }) });
      const { pid, grandchild } = JSON.parse(res.json().output as string) as { pid: number; grandchild: number };
      expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
      child.kill('SIGTERM');
      expect(await waitFor(() => child.exitCode !== null, 5000)).toBe(true);
      expect(await waitFor(() => !isAlive(pid) && !isAlive(grandchild))).toBe(true);
      expect(existsSync(file)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform !== 'linux')('a new start kills the workers a SIGKILLed bridge left behind, even one that ignores stdin EOF', async () => {
    const { root, dirs } = tempDirs();
    const manifest = join(root, 'desktop.json');
    // trap-sigterm: ignores SIGTERM and outlives stdin EOF, with a grandchild that ignores SIGTERM too.
    writeFileSync(manifest, JSON.stringify({ tools: [{ name: 'stubborn', parameters: { type: 'object' }, exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'trap-sigterm'] }] }));
    const first = await startCli(root, dirs, manifest);
    let second: ChildProcess | undefined;
    let pids: number[] = [];
    try {
      const res = await send(first.url, '/v1/tools/call', { method: 'POST', headers: json(first.token), body: JSON.stringify({ name: 'stubborn', arguments: {}, workspace: root }) });
      const { pid, grandchild } = JSON.parse(res.json().output as string) as { pid: number; grandchild: number };
      pids = [pid, grandchild];
      first.child.kill('SIGKILL'); // no exit handler runs: only stdin EOF reaches the worker, and it ignores it
      expect(await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, 5000)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(pids.every(isAlive)).toBe(true);
      const next = await startCli(root, dirs, manifest);
      second = next.child;
      expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
      expect(next.out()).toMatch(/killed 1 leftover worker group/);
      expect(existsSync(join(dirs.runtime_dir, 'groups', `${first.child.pid}.json`))).toBe(false);
    } finally {
      first.child.kill('SIGKILL');
      second?.kill('SIGKILL');
      for (const p of pids) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });
});
