// npm run bench: what recording a command's changes costs (issue 31). On a generated 10,000-file workspace (a git
// repository, everything committed), begin + finish around a no-op command over a bare `bash -c true`, printed beside
// `git status` on the same tree; target: overhead ≤ 2 × git status. Printed beside, without a target, for the
// choice written in CONTEXT.md: the first snapshot of a session (git hashes every file once), and what the other
// design, a stat walk of our own, would cost per snapshot — the walk alone, and the walk that also keeps every
// file's bytes (a stat walk cannot give back the "before" of a file the command modifies unless it copied it).
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { fmt, report } from '../../../scripts/bench-kit';
import { benchRecorder, generated, median, run, time } from './command-bench-test-kit';

const RUNS = 15;
const WARMUP = 3;

/** A stat walk of the tree (size, mtime, inode of every file), and the same keeping every file's bytes. */
async function statWalk(root: string, keep: boolean): Promise<number> {
  let n = 0;
  const visit = async (dir: string): Promise<void> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        if (e.name === '.git' || e.name === '.i') return;
        const path = join(dir, e.name);
        if (e.isDirectory()) return visit(path);
        const st = await fsp.lstat(path);
        n += st.size > 0 ? 1 : 0;
        if (keep) await fsp.readFile(path);
      }),
    );
  };
  await visit(root);
  return n;
}

it('a command’s changes recorded vs git status, on a 10,000-file workspace', async () => {
  const dir = await generated();
  const { recorder } = await benchRecorder(dir);
  let n = 0;
  const wrapped = async () => {
    const watch = await recorder.commandChangesFor({ id: `c${n++}`, name: 'shell', step: 1 }).begin('true');
    if (watch.untracked) throw new Error(watch.untracked.message);
    await run('bash', ['-c', 'true'], dir);
    const summary = await watch.finish();
    if (summary.created.length + summary.modified.length + summary.deleted.length) throw new Error('changes seen');
  };
  const first = await time(wrapped);

  // One snapshot as begin and finish each take it: `git add -A` into the shadow, nothing changed.
  const shadowEnv = {
    ...process.env,
    GIT_DIR: join(dir, '.i', 'sessions', 'bench', 'checkpoints', 'shadow.git'),
    GIT_WORK_TREE: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
  };
  const snapshot = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('git', ['add', '-A'], { cwd: dir, env: shadowEnv, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git add exited ${code}`))));
    });
  const snapshots: number[] = [];
  const bare: number[] = [];
  const recorded: number[] = [];
  const status: number[] = [];
  const walk: number[] = [];
  const walkStatus: number[] = [];
  const walkKeep: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = await time(() => run('bash', ['-c', 'true'], dir));
    const r = await time(wrapped);
    const s = await time(() => run('git', ['status', '--porcelain'], dir));
    const a = await time(snapshot);
    if (i < WARMUP) continue;
    snapshots.push(a);
    bare.push(b);
    recorded.push(r);
    status.push(s);
  }
  // The other design apart (reading every file's bytes leaves garbage that would land in the measures above).
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const s = await time(() => run('git', ['status', '--porcelain'], dir));
    const w = await time(() => statWalk(dir, false));
    const k = await time(() => statWalk(dir, true));
    if (i < WARMUP) continue;
    walkStatus.push(s);
    walk.push(w);
    walkKeep.push(k);
  }
  const overhead = median(recorded) - median(bare);
  report(
    'command changes: begin + finish around `bash -c true` on 10,000 files, overhead vs git status',
    `overhead ${fmt(overhead)} (recorded ${fmt(median(recorded))}, bare ${fmt(median(bare))}) vs git status ${fmt(median(status))}`,
    overhead / median(status),
    2,
  );
  report(
    'command changes: one snapshot (`git add -A` into the shadow, as begin and finish each run it) vs git status',
    `${fmt(median(snapshots))} vs ${fmt(median(status))}`,
    median(snapshots) / median(status),
  );
  report(
    'command changes: the first command of a session (every file hashed once) vs git status',
    `${fmt(first)} vs ${fmt(median(status))}`,
    first / median(status),
  );
  report(
    'command changes, the other design: a stat walk of our own (one snapshot) vs git status',
    `${fmt(median(walk))} vs ${fmt(median(walkStatus))}`,
    median(walk) / median(walkStatus),
  );
  report(
    'command changes, the other design: a stat walk keeping every file’s bytes (one snapshot) vs git status',
    `${fmt(median(walkKeep))} vs ${fmt(median(walkStatus))}`,
    median(walkKeep) / median(walkStatus),
  );
});
