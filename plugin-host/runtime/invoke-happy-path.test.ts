import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCall, readTranscript, recorderWasm } from '../fixtures/wat/wat';
import { MemoryKvStore } from './kv-store';
import { pluginFrom, run, tempWorkspace } from './test-kit';

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => dispose?.());

describe('a well-behaved plugin', () => {
  it('reads, lists, writes and uses its KV through host calls, and gets the exact start and resume frames', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    await writeFile(join(ws.root, 'notes.txt'), 'hello world');
    const wasm = await recorderWasm([
      hostCall(1, 'fs.read', { path: 'notes.txt' }),
      hostCall(2, 'fs.list', { path: '' }),
      hostCall(3, 'fs.write', { path: 'out/result.txt', text: 'héllo' }),
      hostCall(4, 'kv.put', { key: 'count', value: { n: 2 } }),
      hostCall(5, 'kv.get', { key: 'count' }),
      hostCall(6, 'kv.delete', { key: 'count' }),
      hostCall(7, 'kv.get', { key: 'count' }),
    ]);
    const kv = new MemoryKvStore();
    const result = await run(await pluginFrom(wasm), {
      root: ws.root,
      kv,
      arguments: { path: 'notes.txt' },
      invocationId: 'inv-1',
    });
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    expect(result.sideEffects).toBe(true);
    expect(result.hostCalls).toBe(7);
    expect(readTranscript(result.output)).toEqual([
      {
        type: 'start',
        request: {
          id: 'inv-1',
          event: 'tool',
          workspace_id: 'ws-1',
          data: { name: 'run', arguments: { path: 'notes.txt' } },
        },
      },
      { type: 'resume', response: { id: 1, ok: true, result: { text: 'hello world' } } },
      {
        type: 'resume',
        response: { id: 2, ok: true, result: { entries: [{ path: 'notes.txt', directory: false, size: 11 }] } },
      },
      { type: 'resume', response: { id: 3, ok: true, result: { bytes: 6 } } },
      { type: 'resume', response: { id: 4, ok: true, result: {} } },
      { type: 'resume', response: { id: 5, ok: true, result: { value: { n: 2 } } } },
      { type: 'resume', response: { id: 6, ok: true, result: {} } },
      { type: 'resume', response: { id: 7, ok: true, result: {} } },
    ]);
    expect(await readFile(join(ws.root, 'out/result.txt'), 'utf8')).toBe('héllo');
  });

  it('reports no side effects when it only reads', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    await writeFile(join(ws.root, 'a.txt'), 'x');
    const result = await run(await pluginFrom(await recorderWasm([hostCall(1, 'fs.read', { path: 'a.txt' })])), {
      root: ws.root,
    });
    expect(result).toMatchObject({ status: 'done', sideEffects: false, hostCalls: 1 });
  });
});
