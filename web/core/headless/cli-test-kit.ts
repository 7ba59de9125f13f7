// The built `i` for tests that run it as a real process: bundled once per test file with esbuild (as
// scripts/build-cli.mjs does for the bin), each run a child process with only PATH and a fresh HOME unless the test
// sets them. Shared by the headless CLI test files.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Added to (and overriding) PATH and a fresh HOME. */
  env?: Record<string, string>;
  onSpawn?: (pid: number) => void;
  /** Written to stdin, which is then closed. */
  input?: string;
}

const repo = resolve(__dirname, '../../..');

/** Registers the build for this test file (`name` keeps parallel files apart) and returns the runner. */
export function useBuiltCli(name: string): ((args: string[], options: RunOptions) => Promise<Ran>) & { bundle: string } {
  const bundle = join(repo, 'dist', `cli-test-${name}`, String(process.pid), 'i.js');
  beforeAll(async () => {
    await build({ entryPoints: [join(repo, 'web/core/headless/cli.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  }, 60_000);
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));
  const run = (args: string[], options: RunOptions) =>
    new Promise<Ran>((done) => {
      const home = mkdtempSync(join(tmpdir(), 'i-home-'));
      const child = spawn(process.execPath, [bundle, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', HOME: home, ...options.env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => {
        rmSync(home, { recursive: true, force: true });
        done({ code, stdout, stderr });
      });
      if (options.input !== undefined) child.stdin.end(options.input);
      if (child.pid) options.onSpawn?.(child.pid);
    });
  return Object.assign(run, { bundle });
}
