// npm run bench: the `search` tool over a generated 10,000-file tree (100 folders × 100 files of ~1.5 KB source
// text, the seed's walk limit exactly) through the Node WorkspaceFs, against a plain recursive read of the same
// files with node:fs (readdir + readFile, no path policy, no matching). The ratio is the price of the path policy,
// the bounded walk, binary checks and line matching. A literal and a regex search are measured; neither matches,
// so every line of every file is tested.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { compare } from '../../../../scripts/bench-kit';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { WorkspaceFs } from '../../fs';
import type { ToolContext } from '../types';
import { searchTool } from './search';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
let base = '';
let fs: WorkspaceFs;

function source(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++) lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
  return `${lines.join('\n')}\n`;
}

async function plainRead(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await plainRead(full);
    else bytes += (await readFile(full, 'utf8')).length;
  }
  return bytes;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'i-search-bench-'));
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(base, `pkg${String(d).padStart(3, '0')}`);
    await mkdir(dir);
    await Promise.all(Array.from({ length: FILES_PER_FOLDER }, (_, f) => writeFile(join(dir, `mod${f}.ts`), source(d * FILES_PER_FOLDER + f))));
  }
  fs = await createNodeWorkspaceFs({ root: base, access: 'read' });
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const ctx = (): ToolContext => ({ fs, workspaceId: 'bench', callId: 'b', signal: new AbortController().signal });

it('search over 10,000 files vs a plain recursive read of them', async () => {
  const tool = searchTool();
  const check = await tool.execute({ pattern: 'needle_not_present' }, ctx());
  if (check.error || !check.output.startsWith('No matches') || check.output.includes('stopped')) throw new Error(`unexpected search output: ${check.output}`);
  const baseline = { label: 'plain recursive read', run: () => plainRead(base) };
  await compare('search literal, 10k files', baseline, { label: 'search (literal)', run: () => tool.execute({ pattern: 'needle_not_present' }, ctx()) }, { runs: 3, warmup: 1 });
  await compare('search regex, 10k files', baseline, { label: 'search (regex)', run: () => tool.execute({ pattern: 'handler\\d+_99\\b', regex: true }, ctx()) }, { runs: 3, warmup: 1 });
});
