// search reads files through a bounded pool and leaves the walk at its result cap; glob stops listing at its cap.
// A WorkspaceFs wrapper counts reads in flight and listings, and delays reads so that they overlap (and, with
// seeded random delays, finish out of order).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { WorkspaceFs } from '../../contracts/fs';
import type { ToolContext } from '../../contracts/tools';
import { globTool, searchTool } from './index';
import { SEARCH_CONCURRENCY, WALK_LIST_AHEAD } from '../../contracts/tool-limits';

const FOLDERS = 20;
const FILES = 15;
let base = '';
let plain: WorkspaceFs;

interface Counted {
  fs: WorkspaceFs;
  reads: number;
  lists: number;
  inFlight: number;
  maxInFlight: number;
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** The same workspace, counting reads and listings; each read waits `delay()` ms before it starts. */
function counted(delay: () => number): Counted {
  const c: Counted = { fs: plain, reads: 0, lists: 0, inFlight: 0, maxInFlight: 0 };
  c.fs = new Proxy(plain, {
    get(target, key, receiver) {
      if (key === 'readBytes') {
        return async (path: string, options?: { maxBytes?: number }) => {
          c.reads++;
          c.maxInFlight = Math.max(c.maxInFlight, ++c.inFlight);
          try {
            await new Promise((r) => setTimeout(r, delay()));
            return await target.readBytes(path, options);
          } finally {
            c.inFlight--;
          }
        };
      }
      if (key === 'list') {
        return (path: string, options?: { maxEntries?: number }) => {
          c.lists++;
          return target.list(path, options);
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return c;
}

const ctx = (fs: WorkspaceFs): ToolContext => ({
  fs,
  workspaceId: 'ws',
  callId: 'c',
  signal: new AbortController().signal,
});

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'i-search-pool-'));
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(base, `d${String(d).padStart(2, '0')}`);
    await mkdir(dir);
    for (let f = 0; f < FILES; f++) {
      // 0 to 3 matching lines per file, so a cap can fall in the middle of a file.
      const n = (d * FILES + f) % 4;
      const lines = Array.from({ length: 4 }, (_, l) => (l < n ? `needle ${d}.${f}.${l}` : `hay ${l}`));
      await writeFile(join(dir, `f${String(f).padStart(2, '0')}.txt`), `${lines.join('\n')}\n`);
    }
  }
  plain = await createNodeWorkspaceFs({ root: base, access: 'read' });
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('search reads through a bounded pool', () => {
  it('keeps at most `concurrency` reads in flight, and more than one', async () => {
    for (const limit of [4, SEARCH_CONCURRENCY]) {
      const c = counted(() => 2);
      const result = await searchTool({ concurrency: limit }).execute({ pattern: 'absent' }, ctx(c.fs));
      expect(result.output).toBe('No matches for "absent".');
      expect(c.reads).toBe(FOLDERS * FILES);
      expect(c.maxInFlight).toBeLessThanOrEqual(limit);
      expect(c.maxInFlight).toBeGreaterThan(1);
    }
  });

  it('stops reading and listing once the result cap is reached', async () => {
    const c = counted(() => 1);
    const result = await searchTool({ maxMatches: 5, concurrency: 8 }).execute({ pattern: 'needle' }, ctx(c.fs));
    expect(result.output.split('\n')).toEqual([
      'd00/f01.txt:1: needle 0.1.0',
      'd00/f02.txt:1: needle 0.2.0',
      'd00/f02.txt:2: needle 0.2.1',
      'd00/f03.txt:1: needle 0.3.0',
      'd00/f03.txt:2: needle 0.3.1',
      '[more matches not shown (output limited to 5); narrow the pattern, path or glob]',
    ]);
    expect(c.reads).toBeLessThan(30); // of 300
    // Of 21 folders: the root, d00, and each folder the walk popped while the pool filled (at most two more under a
    // slow machine: CI saw d01 popped) lists the next WALK_LIST_AHEAD ahead of its turn. Without the early stop all
    // 21 are listed.
    expect(c.lists).toBeLessThanOrEqual(4 + WALK_LIST_AHEAD);
  });

  it('keeps the first matches in walk order whatever order the reads finish in', async () => {
    const sequential = await searchTool({ maxMatches: 97, concurrency: 1 }).execute({ pattern: 'needle' }, ctx(plain));
    expect(sequential.output.split('\n')).toHaveLength(98);
    for (const seed of [1, 2, 3]) {
      const next = lcg(seed);
      const c = counted(() => Math.floor(next() * 6));
      const pooled = await searchTool({ maxMatches: 97, concurrency: 16 }).execute({ pattern: 'needle' }, ctx(c.fs));
      expect(pooled.output, `seed ${seed}`).toBe(sequential.output);
    }
  });
});

describe('glob stops at its result cap', () => {
  it('lists only the folders it needs for the first paths', async () => {
    const c = counted(() => 0);
    const result = await globTool({ maxResults: 3 }).execute({ pattern: '**/*.txt' }, ctx(c.fs));
    expect(result.output).toBe(
      'd00/f00.txt\nd00/f01.txt\nd00/f02.txt\n[more paths not shown (listed the first 3); use a narrower pattern]',
    );
    expect(c.lists).toBeLessThanOrEqual(2 + WALK_LIST_AHEAD);
  });
});
