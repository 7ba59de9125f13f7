// npm run bench: what one command costs through i's shell tool (issue 31) — the whole path headless i takes: the
// sandbox (bubblewrap), the snapshot before, the command, the snapshot after and the recording of its changes —
// over a bare `bash -c true`, on a generated 10,000-file git repository, printed beside `git status --porcelain` on
// the same tree. Target: overhead ≤ 2 × git status. The split (sandbox alone, recording alone) is printed beside it
// so a regression points at its part. Skipped with a line saying so where bubblewrap cannot run.
import { it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { fmt, report } from '../../../scripts/bench-kit';
import { benchRecorder, generated, median, run, time } from '../checkpoints/command-bench-test-kit';
import type { CommandChanges, ToolContext, ToolDefinition } from '../contracts';
import { createNodeShell } from './node';

const RUNS = 15;
const WARMUP = 3;

it('one command through the shell tool (sandbox + snapshot + record) vs git status, on 10,000 files', async () => {
  const dir = await generated();
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const { recorder } = await benchRecorder(dir);
  const sandboxed = createNodeShell({ workspace: dir, sandbox: 'on', env: process.env });
  const unsandboxed = createNodeShell({ workspace: dir, sandbox: 'off', env: process.env });
  try {
    await sandboxed.runner.check();
  } catch (error) {
    console.log(`BENCH shell command overhead: skipped, no sandbox here (${(error as Error).message})`);
    return;
  }
  const shellOf = (tools: readonly ToolDefinition[]) => tools.find((t) => t.schema.name === 'shell')!;
  let n = 0;
  const command = async (tool: ToolDefinition, recorded: boolean) => {
    const id = `c${n++}`;
    const commandChanges: CommandChanges | undefined = recorded
      ? recorder.commandChangesFor({ id, name: 'shell', step: 1 })
      : undefined;
    const ctx: ToolContext = {
      fs,
      workspaceId: 'bench',
      callId: id,
      signal: new AbortController().signal,
      ...(commandChanges ? { commandChanges } : {}),
    };
    const args = { command: 'true' };
    const prepared = await tool.prepare!(args, ctx);
    const result = await tool.execute(args, ctx, prepared);
    if (result.error) throw new Error(result.output);
  };
  const whole = () => command(shellOf(sandboxed.tools), true);
  const sandboxOnly = () => command(shellOf(sandboxed.tools), false);
  const recordOnly = () => command(shellOf(unsandboxed.tools), true);
  await whole(); // the session's first snapshot hashes every file once (checkpoints' own bench prints that cost)

  const bare: number[] = [];
  const status: number[] = [];
  const all: number[] = [];
  const sandbox: number[] = [];
  const record: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = await time(() => run('bash', ['-c', 'true'], dir));
    const s = await time(() => run('git', ['status', '--porcelain'], dir));
    const w = await time(whole);
    const o = await time(sandboxOnly);
    const r = await time(recordOnly);
    if (i < WARMUP) continue;
    bare.push(b);
    status.push(s);
    all.push(w);
    sandbox.push(o);
    record.push(r);
  }
  await Promise.all([sandboxed.stopAll(), unsandboxed.stopAll()]);
  const overhead = median(all) - median(bare);
  report(
    'shell command overhead: sandbox + snapshot + record around `true` on 10,000 files vs git status',
    `overhead ${fmt(overhead)} (through the tool ${fmt(median(all))}, bare bash -c ${fmt(median(bare))}) vs git status ${fmt(median(status))}`,
    overhead / median(status),
    2,
  );
  report(
    'shell command overhead, the parts: sandbox alone, recording alone (unsandboxed) vs git status',
    `sandbox ${fmt(median(sandbox) - median(bare))}, recording ${fmt(median(record) - median(bare))} vs git status ${fmt(median(status))}`,
    (median(sandbox) - median(bare)) / median(status),
  );
});
