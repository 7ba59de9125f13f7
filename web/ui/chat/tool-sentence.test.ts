import { describe, expect, it } from 'vitest';
import { diffCounts, loggedDiff, toolSentence } from './tool-sentence';

const call = (name: string, args: Record<string, unknown>, output?: string, error = false) => ({
  id: 'c1',
  name,
  args: JSON.stringify(args),
  ...(output !== undefined ? { result: { output, error } } : {}),
});

describe('a read-only tool card says what happened in one sentence', () => {
  it('counts matches and files of a search, with the folder it searched', () => {
    const out = 'src/a.ts:3: needle\nsrc/a.ts:9: needle again\nsrc/b.ts:1: needle\n[skipped files: 2 binary]';
    expect(toolSentence(call('search', { pattern: 'needle', path: 'src' }, out))).toEqual({
      key: 'ts.searchIn',
      params: { pattern: 'needle', path: 'src' },
      code: ['pattern'],
      counted: {
        matches: { n: 3, one: 'ts.oneMatch', many: 'ts.nMatches' },
        files: { n: 2, one: 'ts.oneFile', many: 'ts.nFiles' },
      },
    });
    expect(toolSentence(call('search', { pattern: 'x' }, 'No matches for "x".'))?.key).toBe('ts.searchNone');
    const capped = 'a:1: x\nb:2: x\n[more matches not shown (output limited to 2); narrow the pattern, path or glob]';
    expect(toolSentence(call('search', { pattern: 'x' }, capped))?.counted?.matches?.n).toBe('2+');
  });

  it('counts the paths a glob found and says when it found none or stopped at its cap', () => {
    expect(toolSentence(call('glob', { pattern: '**/*.ts' }, 'a.ts\nsrc/b.ts'))).toEqual({
      key: 'ts.glob',
      params: { pattern: '**/*.ts', n: 2 },
      code: ['pattern'],
    });
    expect(toolSentence(call('glob', { pattern: '*.md' }, 'No files match *.md.'))?.key).toBe('ts.globNone');
    expect(toolSentence(call('glob', { pattern: '*' }, 'a\n[more paths not shown (listed the first 1)]'))?.key).toBe(
      'ts.globMore',
    );
  });

  it('names the lines a read showed, and the total when the file goes on', () => {
    expect(toolSentence(call('read', { path: 'a.ts' }, '     1\tx\n     2\ty'))).toEqual({
      key: 'ts.readLines',
      params: { path: 'a.ts', from: 1, to: 2 },
      code: [],
    });
    const cut = '    10\tx\n    11\ty\n[showing lines 10-11 of 40; continue with offset 12]';
    expect(toolSentence(call('read', { path: 'a.ts', offset: 10 }, cut))?.params).toEqual({
      path: 'a.ts',
      from: 10,
      to: 11,
      total: 40,
    });
    expect(toolSentence(call('read', { path: 'e' }, '(e is empty)'))?.key).toBe('ts.readEmpty');
  });

  it('says what a call asks while it waits or failed, taking no words from a failed result', () => {
    expect(toolSentence(call('search', { pattern: 'p' }))?.key).toBe('ts.searchPending');
    expect(toolSentence(call('read', { path: 'a' }, 'Error E_FS_NOT_FOUND: no', true))?.key).toBe('ts.read');
    expect(toolSentence(call('shell', { command: 'ls' }, 'x'))).toBeNull();
  });

  it('keeps a pattern on one bounded line', () => {
    const s = toolSentence(call('glob', { pattern: `a\nb${'c'.repeat(200)}` }));
    expect(s?.params.pattern).toMatch(/^a\\x0abc+…$/);
    expect(String(s?.params.pattern).length).toBe(80);
  });
});

describe('an applied write or edit keeps its diff through the log', () => {
  const diff = '--- a/m.ts\n+++ b/m.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n+// new';
  it('takes the diff the tool put after its header, and counts the lines added and removed', () => {
    const edit = call('edit', { path: 'm.ts' }, `Edited m.ts: 1 replacement.\nDiff of what was written:\n${diff}`);
    expect(loggedDiff(edit, () => '')).toBe(diff);
    expect(diffCounts(diff)).toEqual({ added: 2, removed: 1 });
    expect(loggedDiff(call('edit', { path: 'm.ts' }, 'Error E_EDIT_CONFLICT: x', true), () => '')).toBeNull();
  });

  it('shows a created file as added lines made from the call content', () => {
    const write = call('write', { path: 'n.txt', content: 'a\nb\n' }, 'Created n.txt (4 bytes).');
    expect(loggedDiff(write, (content, path) => `${path}:${content}`)).toBe('n.txt:a\nb\n');
    expect(loggedDiff(call('write', { path: 'n', content: 'x' }, 'Wrote n (1 bytes).'), () => 'no')).toBeNull();
  });
});
