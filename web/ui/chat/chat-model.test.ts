import { describe, expect, it } from 'vitest';
import type { Message } from '../../core';
import { chatItems, keepUnchanged, lastPromptIndex, prettyArgs } from './chat-model';

const call = (id: string, name: string, args: object) => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } });

describe('chat items from a history', () => {
  it('attaches each tool result to the call of the latest assistant message, even when ids repeat across turns', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'change it' },
      { role: 'assistant', content: 'Reading.', tool_calls: [call('call_1', 'read', { path: 'a.txt' })], reasoning_content: 'read first' },
      { role: 'tool', tool_call_id: 'call_1', content: 'a' },
      { role: 'assistant', content: null, tool_calls: [call('call_1', 'edit', { path: 'a.txt' })] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Error E_TOOL_REJECTED: the person refused.', _error: true },
      { role: 'user', content: 'No tool ran', _meta: { kind: 'batch_error' } },
      { role: 'assistant', content: 'Fine.' },
    ];
    const items = chatItems(messages);
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    const [, first, second] = items as Extract<(typeof items)[number], { kind: 'assistant' }>[];
    expect(first!.thinking).toBe('read first');
    expect(first!.tools[0]).toMatchObject({ name: 'read', result: { output: 'a', error: false } });
    expect(second!.tools[0]).toMatchObject({ name: 'edit', result: { error: true, code: 'E_TOOL_REJECTED' } });
  });

  it('shows tool images as their own item and user images with the text', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const items = chatItems([
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: png } }] },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: png } }], _meta: { kind: 'tool_images', tool_call_id: 'c9' } },
    ]);
    expect(items).toEqual([
      { kind: 'user', index: 0, text: 'look', images: [png] },
      { kind: 'tool-images', index: 1, callId: 'c9', images: [png] },
    ]);
  });

  it('names the model of each answer, marks a stopped one, and marks the last assistant message of each turn', () => {
    const items = chatItems([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'read', { path: 'a' })], _provider: { protocol: 'openai', model: 'gpt-x' } },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'assistant', content: 'First.', _provider: { protocol: 'openai', model: 'gpt-x' } },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'Half an ans', _provider: { protocol: 'anthropic', model: 'claude-y' }, _stopped: {} },
    ]);
    const answers = items.filter((i) => i.kind === 'assistant');
    expect(answers.map((a) => [a.model, a.endsTurn === true, a.stopped === true])).toEqual([
      ['gpt-x', false, false],
      ['gpt-x', true, false],
      ['claude-y', true, true],
    ]);
  });

  it('pretty-prints JSON arguments and keeps text that is not JSON', () => {
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArgs('{"a":')).toBe('{"a":');
  });
});

describe('the prompt a running turn answers', () => {
  it('is the last message the person wrote, skipping tool images and batch notes', () => {
    const messages: Message[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: null, tool_calls: [call('c', 'view_image', { path: 'x.png' })] },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
      { role: 'user', content: [], _meta: { kind: 'tool_images', tool_call_id: 'c' } },
      { role: 'user', content: 'No tool ran', _meta: { kind: 'batch_error' } },
    ];
    expect(lastPromptIndex(messages)).toBe(2);
    expect(lastPromptIndex([])).toBe(-1);
  });
});

describe('stable items across reloads', () => {
  it('keeps the objects of unchanged items when the session is loaded again, and replaces what changed', () => {
    const history: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'read', { path: 'a' })] },
    ];
    const first = chatItems(history);
    // The next checkpoint: the same messages as new objects (a reload), the tool result, and the answer.
    const reloaded = structuredClone(history).concat([{ role: 'tool', tool_call_id: 'c1', content: 'A' }, { role: 'assistant', content: 'It says A.' }]);
    const second = keepUnchanged(first, chatItems(reloaded));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]); // its call now has a result
    expect(second[2]).toMatchObject({ kind: 'assistant', text: 'It says A.' });
    const third = keepUnchanged(second, chatItems(structuredClone(reloaded)));
    third.forEach((item, i) => expect(item).toBe(second[i]));
  });
});

describe('what the person sent', () => {
  it('shows the typed text in the bubble and attached files as names, not their content', () => {
    const items = chatItems([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Explain this' },
          { type: 'text', text: '[Workspace file src/a.ts, attached by the person with an @ mention: 12 bytes]\nexport const a = 1;' },
        ],
      },
    ]);
    expect(items[0]).toMatchObject({ kind: 'user', text: 'Explain this', files: ['src/a.ts'] });
  });
});

