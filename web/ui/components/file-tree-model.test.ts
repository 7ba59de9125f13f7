import { describe, expect, it } from 'vitest';
import type { DirEntry } from '../../core/contracts';
import { reachableOpenFolders, treeKey, visibleRows, type FolderState } from './file-tree-model';

const file = (path: string, size = 1): DirEntry => ({
  path,
  name: path.split('/').at(-1) as string,
  directory: false,
  size,
});
const dir = (path: string): DirEntry => ({ path, name: path.split('/').at(-1) as string, directory: true, size: 0 });
const ready = (...entries: DirEntry[]): FolderState => ({ status: 'ready', entries, partial: false });

const folders = new Map<string, FolderState>([
  ['', ready(file('b.txt'), dir('src'), file('.env'), dir('docs'))],
  ['src', ready(file('src/main.ts'), dir('src/lib'))],
  ['src/lib', ready(file('src/lib/x.ts'))],
  ['docs', ready(file('docs/a.md'))],
]);

describe('file tree rows', () => {
  it('shows open folders’ entries under them, folders first, hidden names only when asked', () => {
    const rows = visibleRows(folders, new Set(['src', 'src/lib']), false);
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.name}`)).toEqual([
      'docs',
      'src',
      '  lib',
      '    x.ts',
      '  main.ts',
      'b.txt',
    ]);
    expect(visibleRows(folders, new Set(), true).map((r) => r.name)).toEqual(['docs', 'src', '.env', 'b.txt']);
  });

  it('keeps an open folder inside a closed one out of view, and forgets open folders that vanished', () => {
    expect(visibleRows(folders, new Set(['src/lib']), false).map((r) => r.name)).toEqual(['docs', 'src', 'b.txt']);
    const after = new Map(folders).set('', ready(file('b.txt'), dir('docs')));
    expect([...reachableOpenFolders(after, new Set(['src', 'src/lib', 'docs']))]).toEqual(['docs']);
  });
});

describe('file tree keys', () => {
  const rows = visibleRows(folders, new Set(['src']), false);
  it('moves with the arrows, Home and End', () => {
    expect(treeKey(rows, 'docs', 'ArrowDown')).toEqual({ focus: 'src' });
    expect(treeKey(rows, 'src', 'ArrowUp')).toEqual({ focus: 'docs' });
    expect(treeKey(rows, 'src', 'End')).toEqual({ focus: 'b.txt' });
    expect(treeKey(rows, 'b.txt', 'Home')).toEqual({ focus: 'docs' });
  });
  it('opens and steps into a folder with Right, closes it or steps out with Left, opens files with Enter', () => {
    expect(treeKey(rows, 'docs', 'ArrowRight')).toEqual({ toggle: 'docs' });
    expect(treeKey(rows, 'src', 'ArrowRight')).toEqual({ focus: 'src/lib' });
    expect(treeKey(rows, 'src', 'ArrowLeft')).toEqual({ toggle: 'src' });
    expect(treeKey(rows, 'src/main.ts', 'ArrowLeft')).toEqual({ focus: 'src' });
    expect(treeKey(rows, 'src/main.ts', 'Enter')).toEqual({ open: 'src/main.ts' });
    expect(treeKey(rows, 'docs', ' ')).toEqual({ toggle: 'docs' });
  });
});
