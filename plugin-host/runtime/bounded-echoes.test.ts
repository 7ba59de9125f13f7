// Bounded echoes (issue 13), in a real worker_threads worker: whatever a plugin sends — a 3 MiB JSON key, op name,
// id or path, a 10 MiB error text, a module with huge import names — the abort or refusal it causes keeps its
// stable code and stays a few hundred bytes, with control and bidi characters escaped. BOM-prefixed frames are
// refused as not JSON.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bigFrameWasm } from '../fixtures/wat/wat';
import { boundedError, MAX_ERROR_MESSAGE_CHARS } from './bounded-error';
import {
  abortCases,
  bomCases,
  ECHO_BOUND,
  hasRawControls,
  importCases,
  refusalCases,
  refusalOf,
} from './hostile-echo-test-kit';
import { invokePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { pluginFrom, run, tempWorkspace } from './test-kit';
import type { ToWorker, WorkerHandle } from './worker-protocol';

let root = '';
let dispose: (() => Promise<void>) | undefined;
beforeEach(async () => {
  const ws = await tempWorkspace();
  root = ws.root;
  dispose = ws.dispose;
});
afterEach(async () => dispose?.());

describe('an abort quotes what the plugin sent only as a short prefix', () => {
  for (const c of [...abortCases, ...bomCases]) {
    it(`${c.name} → ${c.code}, error under ${ECHO_BOUND} characters`, async () => {
      const result = await run(await pluginFrom(await bigFrameWasm(c.frame)));
      expect(result).toMatchObject({ status: 'aborted', error: { code: c.code } });
      if (result.status !== 'aborted') return;
      expect(JSON.stringify(result.error).length).toBeLessThan(ECHO_BOUND);
      expect(hasRawControls(result.error.message)).toBe(false);
    });
  }

  for (const c of importCases) {
    it(`${c.name} → E_RUN_IMPORTS, naming the first import briefly`, async () => {
      const result = await run(await pluginFrom(c.wasm()));
      expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_IMPORTS' } });
      if (result.status !== 'aborted') return;
      expect(JSON.stringify(result.error).length).toBeLessThan(ECHO_BOUND);
      expect(result.error.message).toMatch(
        /First import: "m\.[^"]{10,200}…" \(\d+ characters\)\.$|First import: "m\.[^"]+"\.$/,
      );
    });
  }
});

describe('a refused host call answers the plugin with a short quote', () => {
  for (const c of refusalCases) {
    it(`${c.name} → ${String(c.code)}, refusal under ${ECHO_BOUND} characters`, async () => {
      let asked = 0;
      const approval = { mode: 'ask' as const, approve: async () => (asked++, true) };
      const result = await run(await pluginFrom(await bigFrameWasm(c.frame)), { root, approval });
      expect(result.status).toBe('done');
      if (result.status !== 'done') return;
      const response = refusalOf(result.output);
      expect(response.ok).toBe(false);
      expect(response.error!.split(':')[0]).toMatch(c.code);
      expect(response.error!.length).toBeLessThan(ECHO_BOUND);
      expect(hasRawControls(response.error!)).toBe(false);
      expect(asked).toBe(0);
    });
  }
});

/** A worker that answers init with one abort message of our choosing: the page must not trust its size. */
function hostileWorker(abort: Record<string, unknown>): WorkerHandle {
  let handler: ((m: unknown) => void) | undefined;
  return {
    post: (m: ToWorker) => queueMicrotask(() => handler?.({ type: 'abort', invocationId: m.invocationId, ...abort })),
    onMessage: (h) => (handler = h),
    onError: () => undefined,
    terminate: async () => undefined,
  };
}

describe('the page bounds what a worker reports', () => {
  const big = 'x'.repeat(3 * 1024 * 1024);
  const invoke = async (abort: Record<string, unknown>) =>
    invokePlugin({
      plugin: await pluginFrom(new Uint8Array(8)),
      tool: 'run',
      arguments: {},
      workspaceId: 'ws',
      fs: null,
      kv: new MemoryKvStore(),
      approval: { mode: 'auto' },
      createWorker: () => hostileWorker(abort),
    });

  it('a 3 MiB detail is appended as a short quote with its length', async () => {
    const result = await invoke({
      error: { code: 'E_RUN_TRAP', message: 'The plugin trapped. Engine message:' },
      detail: big,
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_TRAP' } });
    if (result.status !== 'aborted') return;
    expect(result.error.message).toMatch(/^The plugin trapped\. Engine message: "x{200}…" \(3145728 characters\)\.$/);
  });

  it('a 3 MiB message, data and code from the worker are cut to a bounded error', async () => {
    const result = await invoke({
      error: { code: `E_RUN_${'X'.repeat(1000)}`, message: big, data: { a: big, b: [big, big], c: { deep: big } } },
    });
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_WORKER' } });
    if (result.status !== 'aborted') return;
    expect(JSON.stringify(result.error).length).toBeLessThan(3 * 1024);
  });
});

describe('boundedError', () => {
  it('keeps small errors as they are', () => {
    expect(boundedError('E_X', 'Do this.', { n: 1, s: 'short', list: ['a'] })).toEqual({
      code: 'E_X',
      message: 'Do this.',
      data: { n: 1, s: 'short', list: ['a'] },
    });
  });

  it('cuts a long message and describes nested objects without serialising them', () => {
    const deep: unknown[] = [];
    let at = deep;
    for (let i = 0; i < 100_000; i++) at = (at[0] = []) as unknown[];
    const e = boundedError('E_X', 'm'.repeat(10_000), { deep, many: Array.from({ length: 1000 }, (_, i) => i) });
    expect(e.message.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 40);
    expect(e.data).toEqual({ deep: ['an array of 1 items'], many: [0, 1, 2, 3, 4, 5, 6, 7] });
  });
});
