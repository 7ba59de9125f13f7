// The runtime in Chromium: a real dedicated module Worker per invocation, host calls over an OPFS workspace, a
// compiled Module cached on the page and posted to the worker, and an infinite loop terminated at the budget.
import { describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs } from '../fs';
import { sha256Hex } from '../package';
import { hostCall, hostileWasm, readTranscript, recorderWasm } from '../fixtures/wat/wat';
import { browserWorkerFactory } from './browser-worker';
import { invokePlugin, type RuntimePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { ModuleCache } from './module-cache';

async function plugin(wasm: Uint8Array): Promise<RuntimePlugin> {
  return {
    id: 'test.recorder',
    version: '1.0.0',
    sha256: await sha256Hex(wasm),
    permissions: { workspace: 'read-write', storage: true },
    tools: [{ name: 'run' }],
    wasm,
  };
}

async function opfsWorkspace() {
  const opfs = await navigator.storage.getDirectory();
  const name = `runtime-${crypto.randomUUID()}`;
  const dir = await opfs.getDirectoryHandle(name, { create: true });
  return {
    fs: createFsaWorkspaceFs(dir, { access: 'read-write' }),
    cleanup: () => opfs.removeEntry(name, { recursive: true }),
  };
}

describe('plugin runtime in a browser module Worker', () => {
  it('runs a plugin that reads, asks to write (approved) and uses KV, with a cached Module', async () => {
    const { fs, cleanup } = await opfsWorkspace();
    try {
      await fs.writeText('notes.txt', 'hello world');
      const p = await plugin(
        await recorderWasm([
          hostCall(1, 'fs.read', { path: 'notes.txt' }),
          hostCall(2, 'fs.write', { path: 'notes.txt', text: 'HELLO' }),
          hostCall(3, 'kv.put', { key: 'k', value: [1] }),
        ]),
      );
      const cache = new ModuleCache();
      const approvals: string[] = [];
      const options = {
        plugin: p,
        tool: 'run',
        arguments: {},
        workspaceId: 'ws',
        fs,
        kv: new MemoryKvStore(),
        approval: {
          mode: 'ask' as const,
          approve: async (r: { path: string; oldText: string | null; newText: string }) => (
            approvals.push(`${r.path}:${r.oldText}→${r.newText}`),
            true
          ),
        },
        createWorker: browserWorkerFactory,
        moduleCache: cache,
      };
      const first = await invokePlugin(options);
      expect(first.status).toBe('done');
      if (first.status !== 'done') return;
      expect(readTranscript(first.output).slice(1)).toEqual([
        { type: 'resume', response: { id: 1, ok: true, result: { text: 'hello world' } } },
        { type: 'resume', response: { id: 2, ok: true, result: { bytes: 5 } } },
        { type: 'resume', response: { id: 3, ok: true, result: {} } },
      ]);
      expect(approvals).toEqual(['notes.txt:hello world→HELLO']);
      expect(await fs.readText('notes.txt')).toBe('HELLO');
      expect(cache.size).toBe(1);
      const warm = await invokePlugin(options);
      expect(warm.status).toBe('done');
    } finally {
      await cleanup();
    }
  });

  it('terminates an infinite loop at the budget', async () => {
    const result = await invokePlugin({
      plugin: await plugin(await hostileWasm('infinite-loop')),
      tool: 'run',
      arguments: {},
      workspaceId: 'ws',
      fs: null,
      kv: new MemoryKvStore(),
      approval: { mode: 'auto' },
      createWorker: browserWorkerFactory,
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_TIMEOUT' }, sideEffects: false });
  });

  it('aborts a trapping plugin with E_RUN_TRAP', async () => {
    const result = await invokePlugin({
      plugin: await plugin(await hostileWasm('trap')),
      tool: 'run',
      arguments: {},
      workspaceId: 'ws',
      fs: null,
      kv: new MemoryKvStore(),
      approval: { mode: 'auto' },
      createWorker: browserWorkerFactory,
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_TRAP' } });
  });
});
