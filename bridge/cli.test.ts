import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from './cli-args';
import { json, send } from './fixtures/http';
import { fixturesDir, isAlive, tempDirs, waitFor } from './fixtures/support';

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
    for (const word of ['--port', '--manifest', '--allow-origin', '--root', '--config-dir', '/v1/pair', '/v1/status', '/v1/manifest', '/v1/tools/call', '/v1/hooks/run', '/v1/provider/prepare', '/v1/proxy', 'bridge.json', 'I_RUNTIME_DIR']) {
      expect(USAGE).toContain(word);
    }
  });
});

describe('i-bridge process', () => {
  it('prints its URL and pairing code, and on SIGTERM leaves no worker, grandchild or bridge file', async () => {
    const { root, dirs } = tempDirs();
    const bundle = join(root, 'i-bridge.mjs');
    await build({ entryPoints: [join(fixturesDir, '..', 'cli.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }, logLevel: 'silent', absWorkingDir: join(fixturesDir, '..', '..') });
    const manifest = join(root, 'desktop.json');
    writeFileSync(manifest, JSON.stringify({ tools: [{ name: 'hang', parameters: { type: 'object' }, exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'hang'] }] }));
    const env = { PATH: process.env.PATH, I_CONFIG_DIR: dirs.config_dir, I_DATA_DIR: dirs.data_dir, I_CACHE_DIR: dirs.cache_dir, I_RUNTIME_DIR: dirs.runtime_dir };
    // The bundle carries its dependencies, like the published CLI resolves them from node_modules.
    const child = spawn(process.execPath, [bundle, '--port', '0', '--manifest', manifest, '--root', root], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      expect(await waitFor(() => /Pairing code: [A-Z2-9]{4}-[A-Z2-9]{4}/.test(out) && out.includes('Roots:'), 10_000), out).toBe(true);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const file = join(dirs.runtime_dir, 'bridge.json');
      const { token } = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8')) as { token: string };
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
});
