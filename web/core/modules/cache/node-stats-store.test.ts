import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addPrepared, type CacheRecord } from './cache-stats';
import { createNodeStatsStore } from './node-stats-store';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function root() {
  const d = await mkdtemp(join(tmpdir(), 'cache-stats-'));
  dirs.push(d);
  return d;
}
const rec = (id: string): CacheRecord => ({
  id,
  at: 1,
  stream: 's',
  class: 'new',
  protocol: 'openai',
  model: 'm',
  prepared: 1,
  observed: false,
  input: null,
  cache_read: null,
  output: null,
});

describe('node stats store', () => {
  it('writes the document under the state root at the relative stats path', async () => {
    const stateRoot = await root();
    const store = createNodeStatsStore({ stateRoot, stats: 'metrics/cache-stats.json', namespace: 'ns' });
    await store.update((s) => addPrepared(s, rec('a'), 's', { items: 1, head: 'h', last_at: 1, compacting: false }));
    const saved = JSON.parse(await readFile(join(stateRoot, 'metrics', 'cache-stats.json'), 'utf8')) as {
      namespace: string;
      totals: { prepared: number };
    };
    expect(saved.namespace).toBe('ns');
    expect(saved.totals.prepared).toBe(1);
  });

  it('keeps every update when several stores change the same file at once (lock + atomic replace)', async () => {
    const stateRoot = await root();
    const stores = [0, 1, 2].map(() => createNodeStatsStore({ stateRoot, stats: 'stats.json', namespace: 'ns' }));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        stores[i % 3]!.update((s) =>
          addPrepared(s, rec(`r${i}`), `s${i}`, { items: 1, head: 'h', last_at: i, compacting: false }),
        ),
      ),
    );
    const s = await stores[0]!.read();
    expect(s.totals.prepared).toBe(12);
    expect(s.records).toHaveLength(12);
  });

  it('refuses a file that is not a stats document and leaves it untouched', async () => {
    const stateRoot = await root();
    await mkdir(join(stateRoot, 'metrics'));
    await writeFile(join(stateRoot, 'metrics', 'x.json'), '{"hello":1}');
    const store = createNodeStatsStore({ stateRoot, stats: 'metrics/x.json', namespace: 'ns' });
    await expect(store.update(() => undefined)).rejects.toMatchObject({ code: 'E_CACHE_STATS_CORRUPT' });
    expect(await readFile(join(stateRoot, 'metrics', 'x.json'), 'utf8')).toBe('{"hello":1}');
  });

  it('refuses a stats path that leaves the state root', () => {
    expect(() => createNodeStatsStore({ stateRoot: '/tmp', stats: '../x.json', namespace: 'ns' })).toThrow(/\.\./);
  });
});
