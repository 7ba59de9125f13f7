import { describe, expect, it } from 'vitest';
import { formatDuration, pageEnd, previewFigures, RESULT_PAGE_CHARS, toolState } from './tool-state';
import { approvedDiffs, noteToolTime, rememberApproval, toolDuration } from './tool-memory';

const tool = (result?: { output: string; error: boolean; code?: string }) => ({
  id: 'c1',
  name: 'edit',
  args: '{"path":"a.txt"}',
  ...(result ? { result } : {}),
});

describe('tool card state', () => {
  it('says declined for a refusal, failed for an error, done otherwise, and what a call without result waits for', () => {
    expect(toolState(tool({ output: 'ok', error: false }), false, false, false)).toBe('done');
    expect(
      toolState(
        tool({ output: 'Error E_TOOL_REJECTED: no', error: true, code: 'E_TOOL_REJECTED' }),
        false,
        false,
        false,
      ),
    ).toBe('refused');
    expect(
      toolState(tool({ output: 'Error E_TOOL_DENIED: no', error: true, code: 'E_TOOL_DENIED' }), false, false, false),
    ).toBe('refused');
    expect(
      toolState(tool({ output: 'Error E_FS_NOT_FOUND: x', error: true, code: 'E_FS_NOT_FOUND' }), false, false, false),
    ).toBe('failed');
    expect(toolState(tool(), false, true, true)).toBe('waiting');
    expect(toolState(tool(), true, false, true)).toBe('running');
    expect(toolState(tool(), false, false, true)).toBe('queued');
    expect(toolState(tool(), false, false, false)).toBe('stopped');
  });

  it('formats durations short', () => {
    expect(formatDuration(0.2)).toBe('1 ms');
    expect(formatDuration(640)).toBe('640 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
  });
});

describe('tool memory', () => {
  it('keeps an approved diff for the call with the same id and arguments only (ids repeat across turns)', () => {
    rememberApproval(
      {
        callId: 'k1',
        name: 'edit',
        arguments: { path: 'a.txt', old_string: 'x' },
        external: false,
        prepared: { summary: 's', detail: '-x\n+y\n' },
      },
      false,
    );
    expect(approvedDiffs('k1', '{ "path": "a.txt", "old_string": "x" }')).toEqual(['-x\n+y\n']);
    expect(approvedDiffs('k1', '{"path":"b.txt","old_string":"x"}')).toEqual([]);
  });

  it('keeps every write a plugin tool asked about under its call', () => {
    for (const diff of ['+one\n', '+two\n', '+one\n'])
      rememberApproval(
        {
          callId: 'p1',
          name: 'plugin_tool',
          arguments: { path: 'x' },
          external: true,
          prepared: { summary: 'x', detail: diff },
        },
        true,
      );
    expect(approvedDiffs('p1', '{"anything":1}')).toEqual(['+one\n', '+two\n']);
  });

  it('measures a call from when it was seen running to its result', () => {
    noteToolTime('t1', '{}', 'start', 100);
    noteToolTime('t1', '{}', 'start', 150);
    expect(toolDuration('t1', '{}')).toBeUndefined();
    noteToolTime('t1', '{}', 'end', 400);
    noteToolTime('t1', '{}', 'end', 900);
    expect(toolDuration('t1', '{}')).toBe(300);
  });
});

describe('a long tool result in pages', () => {
  it('cuts pages of 64 Ki characters that cover the text exactly once and never split a surrogate pair', () => {
    const text = 'a'.repeat(RESULT_PAGE_CHARS - 1) + '😀' + 'b'.repeat(RESULT_PAGE_CHARS * 2);
    const pages: string[] = [];
    for (let from = 0; from < text.length;) {
      const end = pageEnd(text, from);
      pages.push(text.slice(from, end));
      from = end;
    }
    expect(pages.join('')).toBe(text);
    expect(pages.length).toBe(4);
    expect(pages[0]!.length).toBe(RESULT_PAGE_CHARS - 1); // the emoji moved whole to the next page
    expect(pages[1]!.startsWith('😀')).toBe(true);
    expect(pages.every((p) => p.length <= RESULT_PAGE_CHARS)).toBe(true);
  });

  it('reads the preview figures from the view the model saw', () => {
    expect(
      previewFigures(
        'abc\n[result truncated: 512 of 200000 bytes shown. Read the rest with read_result {"ref":"r","offset":512}]',
      ),
    ).toEqual({ kind: 'reference', shown: 512, total: 200_000 });
    expect(previewFigures('abc\n[output truncated: 9000 of 12000 bytes left out by the context budget]')).toEqual({
      kind: 'budget',
      left: 9000,
      total: 12_000,
    });
    expect(previewFigures('plain result')).toBeNull();
  });
});
