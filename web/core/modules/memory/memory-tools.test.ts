import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext, ToolDefinition } from '../../contracts/tools';
import { createInMemoryMemoryStore, memoryTools, MEMORY_MAX_ENTRIES, secretKind, type MemoryStore } from './index';
import { createNodeMemoryStore, memoryFilePath } from './node-memory-store';

const WS = 'f29127b0-f512-4c6e-9e31-87d476d168ce';
const ctx = { workspaceId: WS, callId: 'c', signal: new AbortController().signal } as unknown as ToolContext;

function defineMemorySuite(name: string, make: () => Promise<{ store: MemoryStore; cleanup: () => Promise<void> }>) {
  describe(`memory tools over ${name}`, () => {
    let store: MemoryStore;
    let cleanup: () => Promise<void>;
    let get: ToolDefinition;
    let set: ToolDefinition;
    beforeEach(async () => {
      ({ store, cleanup } = await make());
      [get, set] = memoryTools(store) as [ToolDefinition, ToolDefinition];
    });
    afterEach(() => cleanup());

    it('sets, updates, adds numbered notes and removes entries; get lists them by key', async () => {
      expect((await get.execute({}, ctx)).output).toBe('(memory is empty)');
      expect((await set.execute({ key: 'test-command', value: 'npm test' }, ctx)).output).toBe(
        'Saved memory "test-command".',
      );
      expect((await set.execute({ key: 'test-command', value: 'npx vitest run' }, ctx)).output).toBe(
        'Updated memory "test-command".',
      );
      expect((await set.execute({ value: 'prefers tabs' }, ctx)).output).toBe('Saved memory "note-1".');
      expect((await set.execute({ value: 'uses pnpm' }, ctx)).output).toBe('Saved memory "note-2".');
      expect((await set.execute({ key: 'note-1', value: '' }, ctx)).output).toBe('Removed memory "note-1".');
      expect((await get.execute({}, ctx)).output).toBe('note-2: uses pnpm\ntest-command: npx vitest run');
      expect((await set.execute({ key: 'absent', value: '' }, ctx)).code).toBe('E_MEMORY_KEY_NOT_FOUND');
    });

    it('keeps memories per workspace', async () => {
      await set.execute({ key: 'a', value: 'one' }, ctx);
      const other = { ...ctx, workspaceId: '0b8a5d8e-1111-4c6e-9e31-87d476d168ce' };
      expect((await get.execute({}, other)).output).toBe('(memory is empty)');
      expect((await get.execute({}, { ...ctx, workspaceId: '../escape' })).code).toBe('E_MEMORY_WORKSPACE_ID');
    });

    it('refuses secret-looking values, bad keys and values over the limits without writing', async () => {
      for (const value of [
        'key is sk-proj-abcdefghijklmnop1234',
        'AKIAIOSFODNN7EXAMPLE',
        'ghp_0123456789abcdefghijABCDEFGHIJ0123',
        'password: hunter22',
        '-----BEGIN OPENSSH PRIVATE KEY-----',
        'token Zm9vYmFyQmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg',
      ]) {
        const result = await set.execute({ key: 'x', value }, ctx);
        expect([result.code, value]).toEqual(['E_MEMORY_SECRET', value]);
      }
      expect((await set.execute({ key: 'bad key', value: 'v' }, ctx)).code).toBe('E_MEMORY_KEY_INVALID');
      expect((await set.execute({ key: 'k', value: 'v'.repeat(2001) }, ctx)).code).toBe('E_MEMORY_VALUE_TOO_LONG');
      expect((await get.execute({}, ctx)).output).toBe('(memory is empty)');
      for (let i = 0; i < MEMORY_MAX_ENTRIES; i++) await set.execute({ key: `k${i}`, value: 'v' }, ctx);
      expect((await set.execute({ key: 'one-more', value: 'v' }, ctx)).code).toBe('E_MEMORY_FULL');
      expect((await set.execute({ key: 'k1', value: 'changed' }, ctx)).output).toBe('Updated memory "k1".');
    });

    it('refuses a value that would take the memory past 32000 characters in all', async () => {
      for (let i = 0; i < 15; i++)
        expect((await set.execute({ key: `big${i}`, value: 'v'.repeat(2000) }, ctx)).error).toBeUndefined();
      const over = await set.execute({ key: 'big15', value: 'v'.repeat(2000) }, ctx);
      expect([over.code, over.output]).toEqual([
        'E_MEMORY_FULL',
        'Error E_MEMORY_FULL: Memory would exceed 32000 characters. Shorten or remove entries first.',
      ]);
    });

    it('asks for approval like an external tool and shows the change first', async () => {
      expect([get.approval, get.external, set.approval, set.external]).toEqual(['ask', true, 'ask', true]);
      await set.execute({ key: 'style', value: 'tabs' }, ctx);
      expect(await set.prepare!({ key: 'style', value: 'spaces' }, ctx)).toEqual({
        summary: 'Remember "style"',
        detail: '- style: tabs\n+ style: spaces',
      });
      await expect(set.prepare!({ key: 'k', value: 'sk-ant-api03-abcdefghijklmnopqrstu' }, ctx)).rejects.toMatchObject({
        code: 'E_MEMORY_SECRET',
      });
    });
  });
}

defineMemorySuite('the in-memory store', async () => ({ store: createInMemoryMemoryStore(), cleanup: async () => {} }));

let dataDir = '';
defineMemorySuite('the Node file store', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'i-memory-'));
  return { store: createNodeMemoryStore({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) };
});

describe('Node memory file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'i-memory-file-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lives at <data_dir>/workspaces/<id>/memory.json and loses no entry under concurrent updates', async () => {
    const store = createNodeMemoryStore({ dataDir: dir });
    const [, set] = memoryTools(store) as [ToolDefinition, ToolDefinition];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => set.execute({ key: `k${i}`, value: `v${i}` }, ctx)),
    );
    expect(results.every((r) => !r.error)).toBe(true);
    const file = memoryFilePath(dir, WS);
    expect(file).toBe(join(dir, 'workspaces', WS, 'memory.json'));
    const stored = JSON.parse(await readFile(file, 'utf8')) as { version: number; entries: Record<string, string> };
    expect(stored.version).toBe(1);
    expect(Object.keys(stored.entries).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7']);
  });

  it('refuses a corrupt memory file and leaves it untouched', async () => {
    const file = memoryFilePath(dir, WS);
    await mkdir(join(dir, 'workspaces', WS), { recursive: true });
    await writeFile(file, '{"version": 2, "entries": {}}');
    const [get, set] = memoryTools(createNodeMemoryStore({ dataDir: dir })) as [ToolDefinition, ToolDefinition];
    expect((await get.execute({}, ctx)).code).toBe('E_MEMORY_CORRUPT');
    expect((await set.execute({ key: 'a', value: 'b' }, ctx)).code).toBe('E_MEMORY_CORRUPT');
    expect(await readFile(file, 'utf8')).toBe('{"version": 2, "entries": {}}');
  });
});

describe('secretKind', () => {
  it('allows ordinary notes, paths and hex digests', () => {
    for (const ok of [
      'run tests with npm test',
      'the API key lives in the credentials store as OPENAI',
      'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'src/components/NavigationBarController.tsx',
    ]) {
      expect(secretKind(ok), ok).toBeNull();
    }
  });
});
