// Shared set-up of the `hplugin run` tests: a fresh temp folder with an empty workspace per test, and the command run
// in-process with its exit code and output captured.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { CliIo } from '../io';
import { runCommand } from './run';

/** A temp folder (`dir`) with an empty `ws` folder inside, made before and removed after each test. */
export function useRunDirs(prefix: string): { readonly dir: string; readonly ws: string } {
  const current = { dir: '', ws: '' };
  beforeEach(async () => {
    current.dir = await mkdtemp(join(tmpdir(), prefix));
    current.ws = join(current.dir, 'ws');
    await mkdir(current.ws);
  });
  afterEach(async () => rm(current.dir, { recursive: true, force: true }));
  return current;
}

export async function hplugin(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) };
  const code = await runCommand(argv, io);
  return { code, stdout, stderr };
}
