// Protocol violations by a plugin, scripted through the recorder module in a real worker: each aborts the
// invocation with its exact code, and nothing the violating frame asked for is performed.
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostCall, recorderWasm } from '../fixtures/wat/wat';
import { MemoryKvStore } from './kv-store';
import { pluginFrom, run, tempWorkspace } from './test-kit';

let dispose: (() => Promise<void>) | undefined;
afterEach(async () => dispose?.());

async function abortCode(script: (object | string | Uint8Array)[]): Promise<string> {
  const result = await run(await pluginFrom(await recorderWasm(script)));
  expect(result.status).toBe('aborted');
  return result.status === 'aborted' ? result.error.code : '';
}

const read = (id: number) => hostCall(id, 'kv.get', { key: 'k' });

describe('protocol violations abort the invocation', () => {
  it('invalid JSON → E_RUN_BAD_JSON', async () => {
    expect(await abortCode(['{"type":"done","output":"x"'])).toBe('E_RUN_BAD_JSON');
  });

  it('a done frame followed by another frame in the same buffer is not JSON → E_RUN_BAD_JSON', async () => {
    expect(
      await abortCode([
        '{"type":"done","output":"x"}{"type":"host_call","request":{"id":1,"op":"kv.get","args":{"key":"k"}}}',
      ]),
    ).toBe('E_RUN_BAD_JSON');
  });

  it('invalid UTF-8 inside a scripted frame → E_RUN_BAD_UTF8', async () => {
    const bytes = new TextEncoder().encode('{"type":"done","output":"xx"}');
    bytes[26] = 0xc3; // a lead byte followed by an ASCII byte
    expect(await abortCode([bytes])).toBe('E_RUN_BAD_UTF8');
  });

  it('a frame of an unknown type → E_RUN_BAD_FRAME', async () => {
    expect(await abortCode([{ type: 'resume', response: {} }])).toBe('E_RUN_BAD_FRAME');
  });

  it('a frame with an extra field → E_RUN_BAD_FRAME', async () => {
    expect(await abortCode([{ type: 'done', output: 'x', extra: 1 }])).toBe('E_RUN_BAD_FRAME');
  });

  it('a repeated host id → E_RUN_HOST_ID', async () => {
    expect(await abortCode([read(1), read(1)])).toBe('E_RUN_HOST_ID');
  });

  it('a skipped host id → E_RUN_HOST_ID', async () => {
    expect(await abortCode([read(1), read(3)])).toBe('E_RUN_HOST_ID');
  });

  it('a decreasing host id → E_RUN_HOST_ID', async () => {
    expect(await abortCode([read(1), read(2), read(1)])).toBe('E_RUN_HOST_ID');
  });

  it('a first host id other than 1 → E_RUN_HOST_ID', async () => {
    expect(await abortCode([read(0)])).toBe('E_RUN_HOST_ID');
  });

  it('the 129th host call → E_RUN_TOO_MANY_CALLS, after 128 were answered', async () => {
    const script = Array.from({ length: 129 }, (_, i) => read(i + 1));
    const result = await run(await pluginFrom(await recorderWasm(script)));
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_TOO_MANY_CALLS' }, hostCalls: 128 });
  });

  it('128 host calls are allowed', async () => {
    const script = Array.from({ length: 128 }, (_, i) => read(i + 1));
    const result = await run(await pluginFrom(await recorderWasm(script)));
    expect(result).toMatchObject({ status: 'done', hostCalls: 128 });
  });

  it('an unknown operation → E_RUN_UNKNOWN_OP', async () => {
    expect(await abortCode([hostCall(1, 'net.fetch', { url: 'https://example.com' })])).toBe('E_RUN_UNKNOWN_OP');
  });

  it('an extra argument → E_RUN_BAD_ARGS, and the call is not performed', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    const result = await run(
      await pluginFrom(await recorderWasm([hostCall(1, 'fs.write', { path: 'a.txt', text: 'x', mode: 'append' })])),
      { root: ws.root },
    );
    expect(result).toMatchObject({ status: 'aborted', error: { code: 'E_RUN_BAD_ARGS' }, sideEffects: false });
    await expect(readFile(join(ws.root, 'a.txt'))).rejects.toThrow();
  });

  it('a missing argument → E_RUN_BAD_ARGS', async () => {
    expect(await abortCode([hostCall(1, 'fs.write', { path: 'a.txt' })])).toBe('E_RUN_BAD_ARGS');
  });

  it('an argument of the wrong type → E_RUN_BAD_ARGS', async () => {
    expect(await abortCode([hostCall(1, 'fs.read', { path: 7 })])).toBe('E_RUN_BAD_ARGS');
  });

  it('a plugin error frame is a normal outcome, not an abort', async () => {
    const result = await run(await pluginFrom(await recorderWasm([{ type: 'error', error: 'no such word' }])));
    expect(result).toMatchObject({ status: 'error', error: 'no such word' });
  });

  it('an error response never carries result', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    await writeFile(join(ws.root, 'bin.dat'), Uint8Array.from([0xff, 0xfe]));
    const kv = new MemoryKvStore();
    const result = await run(await pluginFrom(await recorderWasm([hostCall(1, 'fs.read', { path: 'bin.dat' })])), {
      root: ws.root,
      kv,
    });
    expect(result.status).toBe('done');
    if (result.status !== 'done') return;
    const response = (JSON.parse(result.output.split('\n')[1]!) as { response: Record<string, unknown> }).response;
    expect(Object.keys(response).sort()).toEqual(['error', 'id', 'ok']);
    expect(response.ok).toBe(false);
  });
});
