// The Worker side of e2e/checkpoints-in-the-app.bench.ts (bundled by esbuild, started by checkpoints-page.ts): the
// write path of a private (OPFS) workspace through the File System Access WorkspaceFs in a dedicated Worker, where
// the agent writes, plain vs recorded by the checkpoint store the app uses (IndexedDB), and a revert of 100 files vs
// writing them. Runs are interleaved, medians returned.
import { expose } from 'comlink';
import { createFsaWorkspaceFs, protectWrites, type WorkspaceFs } from '../../plugin-host/fs';
import { writeTool as builtinWrite } from '../../web/core/tools/builtin/write';
import {
  createIdbCheckpointStore,
  revertSince,
  startTurnCheckpoints,
  undoRevert,
  type CheckpointStore,
} from '../../web/core/checkpoints';
import { openHarnessDb } from '../../web/core/storage';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const contents = (size: number, seed: number) => {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7) & 0xff;
  return out;
};

async function setup(name: string) {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
  // Both sides through the write policy, as the app agent composes its fs (the recorder wraps that fs).
  const fs = protectWrites(createFsaWorkspaceFs(dir, { access: 'read-write' }), { allowGitWrites: false });
  const store = createIdbCheckpointStore(await openHarnessDb(`bench-${name}`), 'bench');
  return { fs, store };
}

async function interleave(runs: number, plain: (i: number) => Promise<void>, recorded: (i: number) => Promise<void>) {
  const p: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    let t = performance.now();
    await plain(i);
    if (i >= 2) p.push(performance.now() - t);
    t = performance.now();
    await recorded(i);
    if (i >= 2) r.push(performance.now() - t);
  }
  return { plainMs: median(p), recordedMs: median(r) };
}

/**
 * One turn per run, started before the clock runs: a turn's marker is written when the turn starts (while the model
 * answers), not on the write path. Every recorded write still reads, checks and stores the file's prior state.
 */
async function turns(store: CheckpointStore, session: string, runs: number) {
  const out = [];
  for (let i = 0; i < runs + 2; i++) out.push(await startTurnCheckpoints({ store, session }));
  return out;
}

async function bigFile(runs: number) {
  const { fs, store } = await setup('cp-big');
  const started = await turns(store, 'big', runs);
  return interleave(
    runs,
    (i) => fs.writeBytes('plain.bin', contents(1 << 20, i)),
    async (i) => {
      const turn = started[i]!;
      await turn.fsFor({ id: 'c', name: 'write', step: 1 }, fs).writeBytes('recorded.bin', contents(1 << 20, i));
    },
  );
}

async function smallFiles(runs: number) {
  const { fs, store } = await setup('cp-small');
  const started = await turns(store, 'small', runs);
  const paths = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}/f${i}.ts`);
  return interleave(
    runs,
    async (i) => {
      for (const p of paths('plain')) await fs.writeText(p, `export const v = ${i};\n`.repeat(20));
    },
    async (i) => {
      const turn = started[i]!;
      for (const p of paths('recorded'))
        await turn
          .fsFor({ id: `c-${p}`, name: 'write', step: 1 }, fs)
          .writeText(p, `export const v = ${i};\n`.repeat(20));
    },
  );
}

async function revert(runs: number) {
  const { fs, store } = await setup('cp-revert');
  const paths = Array.from({ length: 100 }, (_, i) => `src/f${i}.ts`);
  for (const p of paths) await fs.writeText(p, 'export const v = 0;\n'.repeat(20));
  const turn = await startTurnCheckpoints({ store, session: 'rev' });
  const cfs = turn.fsFor({ id: 'c', name: 'write', step: 1 }, fs);
  for (const p of paths) await cfs.writeText(p, 'export const v = 1;\n'.repeat(20));
  let last: string | null = null;
  const ctx = { store, fs, session: 'rev' };
  return interleave(
    runs,
    async (i) => {
      for (const p of paths) await fs.writeText(`plain/${p}`, `export const v = ${i};\n`.repeat(20));
    },
    async () => {
      // Each run reverts the turn or undoes the previous revert: every run puts back 100 files.
      last = last === null ? (await revertSince(ctx, 1)).group : (await undoRevert(ctx, last), null);
    },
  );
}

/**
 * The write path as the agent takes it: the built-in `write` tool prepared (diff, snapshot) and executed (it checks the
 * file is still what the person approved, then writes) on existing files: 100 small ones, or one of 1 MiB. Its read
 * just before the write is the recorder's "before", so both sides read each file as often.
 */
async function writeTool(runs: number, shape: 'small' | 'big') {
  const { fs, store } = await setup(`cp-tool-${shape}`);
  const started = await turns(store, `tool-${shape}`, runs);
  const write = builtinWrite();
  const paths = (prefix: string) =>
    shape === 'big' ? [`${prefix}/big.txt`] : Array.from({ length: 100 }, (_, i) => `${prefix}/t${i}.ts`);
  const content = (i: number) =>
    shape === 'big' ? `${'x'.repeat(63)}${i % 10}\n`.repeat(16 * 1024) : `export const v = ${i};\n`.repeat(20);
  for (const p of [...paths('plain'), ...paths('recorded')]) await fs.writeText(p, 'old\n');
  const one = async (f: WorkspaceFs, path: string, text: string) => {
    const ctx = { fs: f, workspaceId: 'bench', callId: path, signal: new AbortController().signal };
    const result = await write.execute(
      { path, content: text },
      ctx,
      await write.prepare!({ path, content: text }, ctx),
    );
    if (result.error) throw new Error(result.output);
  };
  return interleave(
    runs,
    async (i) => {
      for (const p of paths('plain')) await one(fs, p, content(i));
    },
    async (i) => {
      const turn = started[i]!;
      for (const p of paths('recorded')) await one(turn.fsFor({ id: p, name: 'write', step: 1 }, fs), p, content(i));
    },
  );
}

const api = {
  bigFile,
  smallFiles,
  revert,
  writeToolFiles: (runs: number) => writeTool(runs, 'small'),
  writeToolBig: (runs: number) => writeTool(runs, 'big'),
};
export type CheckpointsBenchApi = typeof api;
expose(api);
