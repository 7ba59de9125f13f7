// npm run bench: what checkpoints add to the write path, and what a revert costs, on the headless host (Node
// WorkspaceFs on a temp folder as headless i makes it, session-folder store). The target (≤ 1.3) is on the write path
// as the agent takes it: the built-in write tool (prepare + execute) on a 1 MiB file and on 100 small files. Blind
// overwrites through the recorded fs (the writer read nothing first; no built-in tool makes one) are printed beside
// without a target: the recorder reads the file itself there. Each run writes in a turn of its own, started before
// the clock runs (a turn's marker is written once when the turn starts, while the model is still answering, not on
// the write path). Reverting 100 files (conflict check, restore, records) vs writing the same 100 files: ≤ 1.5.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { protectWrites, type WorkspaceFs } from '../contracts/fs';
import { writeTool } from '../tools/builtin/write';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';
import type { CheckpointStore } from './types';
import { revertSince, undoRevert } from './revert';

const RUNS = 15;
const WARMUP = 3;

async function workspace() {
  // Both sides write through the write policy over the fs a headless run makes (blockingCalls: small reads are
  // synchronous, in 4 ms slices); the recorder wraps that fs.
  const fs = protectWrites(
    await createNodeWorkspaceFs({
      root: mkdtempSync(join(tmpdir(), 'i-bench-cp-')),
      access: 'read-write',
      blockingCalls: true,
    }),
    { allowGitWrites: false },
  );
  const store = createNodeCheckpointStore({ sessionsRoot: mkdtempSync(join(tmpdir(), 'i-bench-cp-sessions-')) });
  return { fs, store };
}

const contents = (size: number, seed: number) => {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
};

/** Turns started ahead, one per run (warm-up included). */
const turns = async (store: CheckpointStore, session: string) => {
  const out = [];
  for (let i = 0; i < RUNS + WARMUP; i++) out.push(await startTurnCheckpoints({ store, session }));
  return out;
};

it('a blind overwrite with checkpoints vs without: a 1 MiB file', async () => {
  const { fs, store } = await workspace();
  const started = await turns(store, 'bench');
  let n = 0;
  await compare(
    'checkpoints: a blind overwrite of a 1 MiB file (no target)',
    { label: 'plain fs', run: () => fs.writeBytes('big-plain.bin', contents(1 << 20, n++)) },
    {
      label: 'with checkpoints',
      run: async () => {
        await started
          .shift()!
          .fsFor({ id: 'c', name: 'write', step: 1 }, fs)
          .writeBytes('big.bin', contents(1 << 20, n++));
      },
    },
    { runs: RUNS, warmup: WARMUP },
  );
});

it('blind overwrites with checkpoints vs without: 100 small files', async () => {
  const { fs, store } = await workspace();
  const started = await turns(store, 'bench');
  let n = 0;
  const files = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}/f${i}.ts`);
  await compare(
    'checkpoints: blind overwrites of 100 small files (no target)',
    {
      label: 'plain fs',
      run: async () => {
        n++;
        for (const path of files('plain')) await fs.writeText(path, `export const v = ${n};\n`.repeat(20));
      },
    },
    {
      label: 'with checkpoints',
      run: async () => {
        n++;
        const turn = started.shift()!;
        for (const path of files('recorded'))
          await turn
            .fsFor({ id: `c${path}`, name: 'write', step: 1 }, fs)
            .writeText(path, `export const v = ${n};\n`.repeat(20));
      },
    },
    { runs: RUNS, warmup: WARMUP },
  );
});

it('revert of 100 files vs writing them', async () => {
  const { fs, store } = await workspace();
  const paths = Array.from({ length: 100 }, (_, i) => `src/f${i}.ts`);
  for (const p of paths) await fs.writeText(p, 'export const v = 0;\n'.repeat(20));
  const turn = await startTurnCheckpoints({ store, session: 'bench' });
  const cfs = turn.fsFor({ id: 'c', name: 'write', step: 1 }, fs);
  for (const p of paths) await cfs.writeText(p, 'export const v = 1;\n'.repeat(20));
  // Each run reverts the turn or undoes the previous revert, so every run puts back 100 files.
  let last: string | null = null;
  const ctx = { store, fs, session: 'bench' };
  let k = 0;
  await compare(
    'checkpoints: revert 100 files',
    {
      label: 'write 100 files',
      run: async () => {
        k++;
        for (const p of paths) await fs.writeText(`plain/${p}`, `export const v = ${k % 2};\n`.repeat(20));
      },
    },
    {
      label: 'revert 100 files',
      run: async () => {
        last = last === null ? (await revertSince(ctx, turn.turn)).group : (await undoRevert(ctx, last)).group;
      },
    },
    { runs: RUNS, warmup: WARMUP, target: 1.5 },
  );
});

// The write path as the agent takes it: the built-in `write` tool, prepared (diff, snapshot) and executed (it checks
// the file is still what the person approved, then writes), on files that exist. Its own read just before the write
// is the recorder's "before", so the recorded side reads each file as often as the plain one.
it('the write tool with checkpoints vs without: a 1 MiB file and 100 small files', async () => {
  const { fs, store } = await workspace();
  const write = writeTool();
  const ctxOf = (f: WorkspaceFs, id: string) => ({
    fs: f,
    workspaceId: 'bench',
    callId: id,
    signal: new AbortController().signal,
  });
  const run = async (f: (id: string) => WorkspaceFs, path: string, content: string) => {
    const ctx = ctxOf(f(path), path);
    const args = { path, content };
    const result = await write.execute(args, ctx, await write.prepare!(args, ctx));
    if (result.error) throw new Error(result.output);
  };
  const big = (n: number) => `${'x'.repeat(63)}${n % 10}\n`.repeat(16 * 1024);
  const small = (n: number) => `export const v = ${n};\n`.repeat(20);
  const paths = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}/t${i}.ts`);
  for (const p of ['plain/big.txt', 'recorded/big.txt', ...paths('plain'), ...paths('recorded')])
    await fs.writeText(p, 'old\n');
  for (const [name, one, content] of [
    ['a 1 MiB file', true, big],
    ['100 small files', false, small],
  ] as const) {
    const started = await turns(store, `tool-${one}`);
    let n = 0;
    await compare(
      `checkpoints: the write tool, ${name}`,
      {
        label: 'plain fs',
        run: () => (
          n++,
          one
            ? run(() => fs, 'plain/big.txt', content(n))
            : sequential(paths('plain'), (p) => run(() => fs, p, content(n)))
        ),
      },
      {
        label: 'with checkpoints',
        run: async () => {
          const turn = started.shift()!;
          const recorded = (id: string) => turn.fsFor({ id, name: 'write', step: 1 }, fs);
          await (one
            ? run(recorded, 'recorded/big.txt', content(n))
            : sequential(paths('recorded'), (p) => run(recorded, p, content(n))));
        },
      },
      { runs: RUNS, warmup: WARMUP, target: 1.3 },
    );
  }
});

async function sequential(paths: string[], f: (path: string) => Promise<void>) {
  for (const p of paths) await f(p);
}
