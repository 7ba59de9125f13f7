import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/contracts';
import type { FileChange, SessionChanges } from '../../core/page';
import type { ChangeRow } from '../../core/checkpoints';
import { anchorOf, placeEvents, quote, rewindPreview, validEvents, type UndoEvent } from './rewind-model';

const prompt = (text: string, turn?: string): Message => ({
  role: 'user',
  content: text,
  ...(turn ? { _turn: turn } : {}),
});
const call = (id: string): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'edit', arguments: '{}' } }],
});
const result = (id: string): Message => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const answer = (text: string): Message => ({ role: 'assistant', content: text });

// Two turns: turn 1 edits a.txt (call c1), turn 2 edits b.txt and a.txt again (c2, c3).
const conversation: Message[] = [
  prompt('first', 't1'),
  call('c1'),
  result('c1'),
  answer('one'),
  prompt('second', 't2'),
  call('c2'),
  result('c2'),
  call('c3'),
  result('c3'),
  answer('two'),
];
const row = (callId: string, turn: number, path: string): ChangeRow => ({
  seq: turn,
  turn,
  step: 1,
  tool: 'edit',
  callId,
  path,
  before: 'x',
  after: 'y',
  beforeBytes: 1,
  afterBytes: 1,
  change: 'modified',
  reverted: false,
  at: 0,
});
const file = (path: string, turns: number[]): FileChange => ({
  path,
  change: 'modified',
  turns,
  added: 1,
  removed: 1,
  changedSince: false,
});
const changes: SessionChanges = {
  rows: [row('c1', 1, 'a.txt'), row('c2', 2, 'b.txt'), row('c3', 2, 'a.txt')],
  reverts: [],
  files: [file('a.txt', [1, 2]), file('b.txt', [2])],
  totals: { files: 2, added: 2, removed: 2 },
};

const event = (id: string, anchor: string | null, at = 1): UndoEvent => ({
  kind: 'revert',
  id,
  at,
  anchor,
  files: 1,
  group: `g-${id}`,
});

describe('rewind preview', () => {
  it('announces the files changed by the prompt’s turn and every later one', () => {
    expect(rewindPreview(conversation, 4, changes).map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    // From the first prompt: a.txt was changed in turn 1, b.txt only later — both go back.
    expect(rewindPreview(conversation, 0, changes).map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
  });

  it('announces no file when nothing after the prompt wrote one', () => {
    const later = [...conversation, prompt('third', 't3'), answer('just talk')];
    expect(rewindPreview(later, 10, changes)).toEqual([]);
  });

  it('leaves out files only earlier turns changed', () => {
    const onlyEarlier: SessionChanges = {
      ...changes,
      rows: [row('c1', 1, 'a.txt'), row('c2', 2, 'b.txt')],
      files: [file('a.txt', [1]), file('b.txt', [2])],
    };
    expect(rewindPreview(conversation, 4, onlyEarlier).map((f) => f.path)).toEqual(['b.txt']);
  });
});

describe('undo events in the conversation', () => {
  it('anchors to the last prompt’s turn id', () => {
    expect(anchorOf(conversation)).toBe('t2');
    expect(anchorOf(conversation.slice(0, 4))).toBe('t1');
    expect(anchorOf([])).toBeNull();
  });

  it('shows an event after the turn it followed, before the next prompt, or at the end', () => {
    const placed = placeEvents(conversation, [event('after-1', 't1'), event('after-2', 't2')]);
    expect(placed.get(4)?.map((e) => e.id)).toEqual(['after-1']);
    expect(placed.get('end')?.map((e) => e.id)).toEqual(['after-2']);
  });

  it('keeps events of one place in the order they happened', () => {
    const placed = placeEvents(conversation, [event('later', 't2', 5), event('earlier', 't2', 2)]);
    expect(placed.get('end')?.map((e) => e.id)).toEqual(['earlier', 'later']);
  });

  it('anchors to a prompt without a turn id (sent before undo) by its index', () => {
    const legacy = [prompt('old'), answer('a'), prompt('older too'), answer('b')];
    expect(anchorOf(legacy)).toBe('@2');
    const placed = placeEvents([...legacy, prompt('new', 't9')], [event('e', '@2'), event('x', '@1')]);
    expect(placed.get(4)?.map((e) => e.id)).toEqual(['e']);
    expect([...placed.values()].flat().map((e) => e.id)).toEqual(['e']);
  });

  it('shows an event from before any prompt ahead of the first one', () => {
    expect(
      placeEvents(conversation, [event('start', null)])
        .get(0)
        ?.map((e) => e.id),
    ).toEqual(['start']);
  });

  it('hides an event whose turn was rewound away', () => {
    const placed = placeEvents(conversation.slice(0, 4), [event('gone', 't2'), event('kept', 't1')]);
    expect([...placed.values()].flat().map((e) => e.id)).toEqual(['kept']);
  });

  it('drops stored events that are malformed instead of showing them half', () => {
    const good = event('ok', 't1');
    const rewind: UndoEvent = {
      kind: 'rewind',
      id: 'r',
      at: 1,
      anchor: null,
      mode: 'both',
      prompt: 'p',
      files: 2,
      group: 'g',
    };
    expect(
      validEvents([good, rewind, { ...good, files: -1 }, { ...rewind, mode: 'all' }, { ...good, group: 3 }, null, 'x']),
    ).toEqual([good, rewind]);
    expect(validEvents({ not: 'a list' })).toEqual([]);
  });

  it('quotes a prompt on one bounded line without splitting a character', () => {
    expect(quote('fix\n  the   bug')).toBe('fix the bug');
    const long = quote('😀'.repeat(100), 10);
    expect([...long]).toHaveLength(10);
    expect(long.endsWith('😀…')).toBe(true);
  });
});
