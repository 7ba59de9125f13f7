// Bounded echoes in Chromium: the same hostile corpus as bounded-echoes.test.ts, through a real module Worker
// (the browser's TextDecoder and JSON.parse, a compiled Module posted from the page) and an OPFS workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs, type WorkspaceFs } from '../fs';
import { sha256Hex } from '../package';
import { bigFrameWasm } from '../fixtures/wat/wat';
import { browserWorkerFactory } from './browser-worker';
import {
  abortCases,
  bomCases,
  ECHO_BOUND,
  hasRawControls,
  importCases,
  refusalCases,
  refusalOf,
} from './hostile-echo-test-kit';
import { invokePlugin, type InvokeResult } from './invoke';
import { MemoryKvStore } from './kv-store';
import { ModuleCache } from './module-cache';

let fs: WorkspaceFs;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const opfs = await navigator.storage.getDirectory();
  const name = `echoes-${crypto.randomUUID()}`;
  fs = createFsaWorkspaceFs(await opfs.getDirectoryHandle(name, { create: true }), { access: 'read-write' });
  cleanup = () => opfs.removeEntry(name, { recursive: true });
});
afterAll(async () => cleanup());

async function invoke(wasm: Uint8Array, asked: { count: number } = { count: 0 }): Promise<InvokeResult> {
  return invokePlugin({
    plugin: {
      id: 'test.echo',
      version: '1.0.0',
      sha256: await sha256Hex(wasm),
      permissions: { workspace: 'read-write', storage: true },
      tools: [{ name: 'run' }],
      wasm,
    },
    tool: 'run',
    arguments: {},
    workspaceId: 'ws',
    fs,
    kv: new MemoryKvStore(),
    approval: { mode: 'ask', approve: async () => (asked.count++, true) },
    createWorker: browserWorkerFactory,
    moduleCache: new ModuleCache(),
  });
}

describe('an abort quotes what the plugin sent only as a short prefix (module Worker)', () => {
  for (const c of [...abortCases, ...bomCases]) {
    it(`${c.name} → ${c.code}`, async () => {
      const result = await invoke(await bigFrameWasm(c.frame));
      expect(result).toMatchObject({ status: 'aborted', error: { code: c.code } });
      if (result.status !== 'aborted') return;
      expect(JSON.stringify(result.error).length).toBeLessThan(ECHO_BOUND);
      expect(hasRawControls(result.error.message)).toBe(false);
    });
  }

  for (const c of importCases) {
    it(`${c.name} → E_RUN_IMPORTS`, async () => {
      const result = await invoke(c.wasm());
      expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_IMPORTS' } });
      if (result.status !== 'aborted') return;
      expect(JSON.stringify(result.error).length).toBeLessThan(ECHO_BOUND);
    });
  }
});

describe('a refused host call answers the plugin with a short quote (OPFS workspace)', () => {
  for (const c of refusalCases) {
    it(`${c.name} → ${String(c.code)}`, async () => {
      const asked = { count: 0 };
      const result = await invoke(await bigFrameWasm(c.frame), asked);
      expect(result.status).toBe('done');
      if (result.status !== 'done') return;
      const response = refusalOf(result.output);
      expect(response.ok).toBe(false);
      expect(response.error!.split(':')[0]).toMatch(c.code);
      expect(response.error!.length).toBeLessThan(ECHO_BOUND);
      expect(hasRawControls(response.error!)).toBe(false);
      expect(asked.count).toBe(0);
    });
  }
});
