import { describe, expect, it } from 'vitest';
import type { ContentScope } from './content-store';
import { createMemoryContentStore } from './memory-content-store';
import { createReadResultTool } from './read-result-tool';
import { decodeRef, encodeRef } from './ref-token';
import { BoundedResultPolicy, projectToolResult, renderResultView } from './result-policy';

const scope: ContentScope = { sessionId: 'session-1', taskId: 'task-1', expiresAtMs: 60_000 };
const newStore = () =>
  createMemoryContentStore({
    storeId: 'host-memory-1',
    maxEntries: 128,
    maxBytes: 1024 * 1024,
    maxContentBytes: 64 * 1024,
    maxPageBytes: 4096,
    maxTtlMs: 60_000,
  });
const base = { scope, nowMs: 1, policy: new BoundedResultPolicy(), maxPreviewBytes: 4096 };
const ctx = { fs: undefined as never, workspaceId: 'w', callId: 'c', signal: new AbortController().signal };

describe('bounded tool-result views', () => {
  it('keeps a result of up to 4096 bytes whole and stores nothing', async () => {
    const store = newStore();
    const view = await projectToolResult({
      ...base,
      store,
      sourceId: 'e1',
      outcome: { error: false, output: 'x'.repeat(4096) },
    });
    expect(view.output).toEqual({ text: 'x'.repeat(4096), truncated: false, totalBytes: 4096 });
    expect(await store.purgeExpired(10 ** 9)).toBe(0);
  });

  it('cuts a longer result to a 512-byte UTF-8 preview with a reference to the full text', async () => {
    const store = newStore();
    const output = '工具数据'.repeat(1000);
    const view = await projectToolResult({ ...base, store, sourceId: 'e1', outcome: { error: false, output } });
    expect(view.output.truncated).toBe(true);
    expect(view.output.text).toBe(output.slice(0, 170)); // 510 bytes: the 171st character would cross 512
    expect(view.output.totalBytes).toBe(12000);
    const ref = view.output.reference!;
    const p = await store.read(ref, scope, 2, 0, 4096);
    expect(p.nextOffset).not.toBeNull();
  });

  it('keeps failure status and code and only shortens the message text', async () => {
    const store = newStore();
    const view = await projectToolResult({
      ...base,
      store,
      sourceId: 'e2',
      outcome: { error: true, code: 'E_X', output: 'e'.repeat(5000) },
    });
    expect(view.error).toBe(true);
    expect(view.code).toBe('E_X');
    expect(view.output.text).toHaveLength(512);
  });

  it('refuses a policy preview larger than the caller allows', async () => {
    const store = newStore();
    await expect(
      projectToolResult({
        ...base,
        maxPreviewBytes: 100,
        store,
        sourceId: 'e3',
        outcome: { error: false, output: 'x'.repeat(5000) },
      }),
    ).rejects.toMatchObject({ code: 'E_RESULT_POLICY' });
  });

  it('read_result pages through the whole stored result with the host scope, and refuses another scope', async () => {
    const store = newStore();
    const output = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const view = await projectToolResult({ ...base, store, sourceId: 'e4', outcome: { error: false, output } });
    const shown = renderResultView(view);
    const call = JSON.parse(shown.slice(shown.indexOf('read_result ') + 12, -1)) as { ref: string; offset: number };
    expect(call.offset).toBe(512);
    const tool = createReadResultTool({ store, scope: () => scope, now: () => 2 });
    let text = view.output.text;
    let args: { ref: string; offset: number } | null = call;
    let pages = 0;
    while (args) {
      const r = await tool.execute(args, ctx);
      expect(r.error).toBeUndefined();
      const cut = r.output.lastIndexOf('\n[');
      text += r.output.slice(0, cut);
      const m = /next: read_result (\{.*\})\]$/.exec(r.output);
      args = m ? (JSON.parse(m[1]!) as { ref: string; offset: number }) : null;
      pages++;
    }
    expect(text).toBe(output);
    expect(pages).toBeGreaterThan(1);
    const other = createReadResultTool({ store, scope: () => ({ ...scope, taskId: 'task-2' }), now: () => 2 });
    expect(await other.execute(call, ctx)).toMatchObject({ error: true, code: 'E_CONTENT_SCOPE' });
    expect(await tool.execute({ ref: 'cr1.bm90IGEgcmVm', offset: 0 }, ctx)).toMatchObject({
      error: true,
      code: 'E_CONTENT_REF_INVALID',
    });
  });

  it('encodes a reference as an opaque token that decodes to the same fields and no path', async () => {
    const ref = { storeId: 's', sourceId: 'call_1', sessionId: 'a', taskId: 'b', totalBytes: 10, expiresAtMs: 5 };
    const token = encodeRef(ref);
    expect(token).toMatch(/^cr1\.[A-Za-z0-9_-]+$/);
    expect(decodeRef(token)).toEqual(ref);
    expect(() => decodeRef('cr1.!!')).toThrow(/ref/);
  });
});
