// Cancel, termination and stale messages: nothing is replayed, nothing from a finished or foreign invocation is
// acted on, and a cancelled write leaves the file either unchanged or fully written.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCall, hostileWasm, recorderWasm } from '../fixtures/wat/wat';
import type { WorkspaceFs } from '../fs';
import { createNodeWorkspaceFs } from '../fs/node';
import { invokePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { nodeWorkerFactory } from './node-worker';
import { pluginFrom, run, tempWorkspace } from './test-kit';
import type { ToWorker, WorkerHandle } from './worker-protocol';

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => dispose?.());

describe('cancel during a pending write', () => {
  it('while the person is still deciding: aborts with E_RUN_CANCELLED, the file is unchanged, no side effects', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    await writeFile(join(ws.root, 'notes.txt'), 'original');
    const controller = new AbortController();
    let approvalSignal: AbortSignal | undefined;
    const result = await run(
      await pluginFrom(await recorderWasm([hostCall(1, 'fs.write', { path: 'notes.txt', text: 'new' })])),
      {
        root: ws.root,
        signal: controller.signal,
        approval: {
          mode: 'ask',
          approve: (_request, signal) => {
            approvalSignal = signal;
            setTimeout(() => controller.abort(), 20);
            return new Promise(() => {}); // the person never answers
          },
        },
      },
    );
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_CANCELLED' }, sideEffects: false });
    expect(approvalSignal?.aborted).toBe(true);
    expect(await readFile(join(ws.root, 'notes.txt'), 'utf8')).toBe('original');
  });

  it('just as the write starts: the file is either the old text or the whole new text, and side effects are reported', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    const big = 'x'.repeat(2 * 1024 * 1024);
    await writeFile(join(ws.root, 'notes.txt'), 'original');
    const controller = new AbortController();
    // Cancel at the moment the write starts (after the approval and the host's re-check of the file).
    const nodeFs = await createNodeWorkspaceFs({ root: ws.root, access: 'read-write' });
    const fs: WorkspaceFs = Object.assign(Object.create(nodeFs) as WorkspaceFs, {
      writeText: (path: string, text: string) => {
        const writing = nodeFs.writeText(path, text);
        controller.abort();
        return writing;
      },
    });
    const result = await invokePlugin({
      plugin: await pluginFrom(await recorderWasm([hostCall(1, 'fs.write', { path: 'notes.txt', text: big })])),
      tool: 'run',
      arguments: {},
      workspaceId: 'ws-1',
      fs,
      kv: new MemoryKvStore(),
      createWorker: nodeWorkerFactory(),
      timeoutMs: 10_000,
      signal: controller.signal,
      approval: { mode: 'ask', approve: async () => true },
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_CANCELLED' }, sideEffects: true });
    // The in-flight atomic write is never interrupted half-way; give it time to land, then check both states.
    for (let i = 0; i < 50; i++) {
      const text = await readFile(join(ws.root, 'notes.txt'), 'utf8');
      expect(text === 'original' || text === big).toBe(true);
      if (text === big) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('cancelling before the start never creates a worker', async () => {
    const controller = new AbortController();
    controller.abort();
    let created = 0;
    const plugin = await pluginFrom(await hostileWasm('infinite-loop'));
    const result = await invokePlugin({
      plugin,
      tool: 'run',
      arguments: {},
      workspaceId: 'w',
      fs: null,
      kv: new MemoryKvStore(),
      approval: { mode: 'auto' },
      signal: controller.signal,
      createWorker: () => {
        created++;
        throw new Error('unreachable');
      },
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_CANCELLED' } });
    expect(created).toBe(0);
  });

  it('cancelling a running infinite loop terminates it at once', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await run(await pluginFrom(await hostileWasm('infinite-loop')), {
      signal: controller.signal,
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_CANCELLED' } });
    expect(result.durationMs).toBeLessThan(5_000);
  });
});

/** A worker whose messages the test scripts, to reach orderings a real driver never produces. */
function scriptedWorker(onInit: (invocationId: string, emit: (message: unknown) => void) => void): {
  factory: () => WorkerHandle;
  terminated: () => boolean;
} {
  let terminated = false;
  return {
    terminated: () => terminated,
    factory: () => {
      let handler: (message: unknown) => void = () => {};
      return {
        post: (message: ToWorker) => {
          if (message.type === 'init') queueMicrotask(() => onInit(message.invocationId, (m) => handler(m)));
        },
        onMessage: (h) => (handler = h),
        onError: () => {},
        terminate: async () => {
          terminated = true;
        },
      };
    },
  };
}

describe('messages after the end and from other invocations are ignored', () => {
  it('a host call after done is never performed', async () => {
    const kv = new MemoryKvStore();
    const worker = scriptedWorker((invocationId, emit) => {
      emit({ type: 'frame', invocationId, text: JSON.stringify({ type: 'done', output: 'finished' }), bytes: 30 });
      emit({
        type: 'frame',
        invocationId,
        text: JSON.stringify({ type: 'host_call', request: { id: 1, op: 'kv.put', args: { key: 'k', value: 1 } } }),
        bytes: 80,
      });
    });
    const plugin = await pluginFrom(new Uint8Array(8));
    const result = await invokePlugin({
      plugin,
      tool: 'run',
      arguments: {},
      workspaceId: 'w',
      fs: null,
      kv,
      approval: { mode: 'auto' },
      createWorker: worker.factory,
    });
    expect(result).toMatchObject({ status: 'done', output: 'finished', sideEffects: false, hostCalls: 0 });
    await new Promise((r) => setTimeout(r, 20));
    expect(await kv.usage({ workspaceId: 'w', pluginId: plugin.id })).toEqual({ entries: 0, bytes: 0 });
    expect(worker.terminated()).toBe(true);
  });

  it('frames tagged with another invocation id are ignored', async () => {
    const kv = new MemoryKvStore();
    const worker = scriptedWorker((invocationId, emit) => {
      emit({
        type: 'frame',
        invocationId: 'someone-else',
        text: JSON.stringify({ type: 'host_call', request: { id: 1, op: 'kv.put', args: { key: 'k', value: 1 } } }),
        bytes: 80,
      });
      emit({
        type: 'frame',
        invocationId: 'someone-else',
        text: JSON.stringify({ type: 'done', output: 'forged' }),
        bytes: 30,
      });
      emit({ type: 'frame', invocationId, text: JSON.stringify({ type: 'done', output: 'real' }), bytes: 30 });
    });
    const plugin = await pluginFrom(new Uint8Array(8));
    const result = await invokePlugin({
      plugin,
      tool: 'run',
      arguments: {},
      workspaceId: 'w',
      fs: null,
      kv,
      approval: { mode: 'auto' },
      createWorker: worker.factory,
    });
    expect(result).toMatchObject({ status: 'done', output: 'real', sideEffects: false });
  });

  it('refuses an unknown tool before starting a worker (E_RUN_UNKNOWN_TOOL)', async () => {
    const result = await run(await pluginFrom(await recorderWasm([])), { tool: 'nope' });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_UNKNOWN_TOOL' } });
  });
});
