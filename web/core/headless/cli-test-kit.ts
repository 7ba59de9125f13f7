// Running `i` in tests: in-process through runCli on a throwaway project (headlessProject), or as a real process: bundled once per test file with esbuild (as
// scripts/build-cli.mjs does for the bin), each run a child process with only PATH and a fresh HOME unless the test
// sets them. Shared by the headless CLI test files.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { runCli } from './run';

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
export function useBuiltCli(
  name: string,
): ((args: string[], options: RunOptions) => Promise<Ran>) & { bundle: string } {
  const bundle = join(repo, 'dist', `cli-test-${name}`, String(process.pid), 'i.js');
  beforeAll(async () => {
    await build({
      entryPoints: [join(repo, 'web/core/headless/cli.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
  }, 60_000);
  afterAll(() => rmSync(dirname(bundle), { recursive: true, force: true }));
  const run = (args: string[], options: RunOptions) =>
    new Promise<Ran>((done) => {
      const home = mkdtempSync(join(tmpdir(), 'i-home-'));
      const child = spawn(process.execPath, [bundle, ...args], {
        cwd: options.cwd,
        env: { PATH: process.env.PATH ?? '', HOME: home, ...options.env },
      });
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

/** A throwaway project for an in-process run: `project/` with `files`, `conf/model.json` with `model`, a data dir. */
export interface HeadlessProject {
  root: string;
  dir: string;
  conf: string;
  /** Runs `i` in-process (runCli) in the project with `--config conf/model.json` and `args`; never throws. */
  run(args: string[]): Promise<Ran>;
}

const projects: string[] = [];
afterEach(() => {
  for (const r of projects.splice(0)) rmSync(r, { recursive: true, force: true });
});

export function headlessProject(model: Record<string, unknown>, files: Record<string, string> = {}): HeadlessProject {
  const root = mkdtempSync(join(tmpdir(), 'i-project-'));
  projects.push(root);
  const dir = join(root, 'project');
  const conf = join(root, 'conf');
  for (const d of [dir, conf]) mkdirSync(d);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(conf, 'model.json'), JSON.stringify(model));
  return {
    root,
    dir,
    conf,
    async run(args) {
      let stdout = '';
      let stderr = '';
      const code = await runCli({
        argv: ['-C', dir, '--config', join(conf, 'model.json'), ...args],
        env: { HOME: root, I_CONFIG_DIR: conf, I_DATA_DIR: join(root, 'data') },
        cwd: dir,
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        signal: new AbortController().signal,
        version: 'test',
      });
      return { code, stdout, stderr };
    },
  };
}
