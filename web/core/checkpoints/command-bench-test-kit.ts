// Shared by the command benchmarks (checkpoints' recording, the shell tool's whole path): a generated 10,000-file
// git repository and the small timing helpers they measure it with. Benchmarks only.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRecorder } from './command-changes';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';

export const FOLDERS = 100;
export const PER_FOLDER = 100;

export const run = (program: string, args: string[], cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(program, args, { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args[0]} exited ${code}`))));
  });

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
export const time = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

export async function generated() {
  const dir = mkdtempSync(join(tmpdir(), 'i-bench-cmd-'));
  for (let d = 0; d < FOLDERS; d++) {
    mkdirSync(join(dir, 'src', `m${d}`), { recursive: true });
    for (let f = 0; f < PER_FOLDER; f++)
      writeFileSync(join(dir, 'src', `m${d}`, `f${f}.ts`), `export const v${f} = ${d * PER_FOLDER + f};\n`.repeat(8));
  }
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  await run('git', ['init', '-q', '.'], dir);
  await run('git', ['add', '-A'], dir);
  await run('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'tree'], dir);
  return dir;
}

/** A session's checkpoint store in the workspace and the command recorder of its first turn, as headless i makes them. */
export async function benchRecorder(dir: string) {
  const store = createNodeCheckpointStore({ sessionsRoot: join(dir, '.i', 'sessions') });
  const turn = await startTurnCheckpoints({ store, session: 'bench' });
  const recorder = createCommandRecorder({
    store,
    session: 'bench',
    turn: turn.turn,
    root: dir,
    shadowDir: join(dir, '.i', 'sessions', 'bench', 'checkpoints', 'shadow.git'),
  });
  return { store, recorder };
}
