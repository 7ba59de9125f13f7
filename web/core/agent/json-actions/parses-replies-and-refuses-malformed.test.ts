// The JSON action protocol's reply rule (parse.ts): one object, bare or in one ```json block; prose around a fenced
// block is accepted, prose around a bare object refused; every malformed shape gets its stable code.
import { describe, expect, it } from 'vitest';
import { parseJsonAction } from './parse';
import { toolResultEnvelope } from './envelope';

const TOOLS = new Set(['read', 'write']);
const READ = { type: 'tool_call', name: 'read', arguments: { path: 'a.txt' } };

describe('parseJsonAction', () => {
  it('reads a bare object, with whitespace around it', () => {
    expect(parseJsonAction(`  \n${JSON.stringify(READ)}\n `, TOOLS)).toEqual({ ok: true, action: READ });
  });

  it('reads the object inside one ```json block, prose before and after the block ignored', () => {
    const reply =
      'I will read the file first.\n```json\n{"type": "final", "content": "done {not an object}"}\n```\nThat is all.';
    expect(parseJsonAction(reply, TOOLS)).toEqual({
      ok: true,
      action: { type: 'final', content: 'done {not an object}' },
    });
  });

  it('reads ask_user as the question', () => {
    expect(parseJsonAction('{"type":"ask_user","question":"Which file?"}', TOOLS)).toEqual({
      ok: true,
      action: { type: 'ask_user', question: 'Which file?' },
    });
  });

  it('keeps braces and quotes inside strings out of the object count', () => {
    const reply = JSON.stringify({
      type: 'tool_call',
      name: 'write',
      arguments: { path: 'x.json', text: '{"a": "}"} \\" {' },
    });
    expect(parseJsonAction(reply, TOOLS)).toMatchObject({ ok: true, action: { name: 'write' } });
  });

  const malformed: Array<[string, string, string]> = [
    ['an empty reply', '   ', 'E_JSON_ACTION_NO_JSON'],
    ['plain prose', 'The file says hello.', 'E_JSON_ACTION_NO_JSON'],
    ['prose around a bare object', `Sure: ${JSON.stringify(READ)}`, 'E_JSON_ACTION_PROSE'],
    ['prose after a bare object', `${JSON.stringify(READ)} then I will answer.`, 'E_JSON_ACTION_PROSE'],
    ['two bare objects', `${JSON.stringify(READ)}\n${JSON.stringify(READ)}`, 'E_JSON_ACTION_SEVERAL'],
    [
      'two ```json blocks',
      `\`\`\`json\n${JSON.stringify(READ)}\n\`\`\`\n\`\`\`json\n${JSON.stringify(READ)}\n\`\`\``,
      'E_JSON_ACTION_SEVERAL',
    ],
    ['an unclosed ```json block', `\`\`\`json\n${JSON.stringify(READ)}`, 'E_JSON_ACTION_INVALID_JSON'],
    [
      'text beside the object in the block',
      `\`\`\`json\n${JSON.stringify(READ)} // read it\n\`\`\``,
      'E_JSON_ACTION_INVALID_JSON',
    ],
    ['an object that does not parse', '{"type": "final", "content": "x",}', 'E_JSON_ACTION_INVALID_JSON'],
    ['an object never closed', '{"type": "final", "content": "x"', 'E_JSON_ACTION_INVALID_JSON'],
    ['a JSON array', `[${JSON.stringify(READ)}]`, 'E_JSON_ACTION_NOT_OBJECT'],
    ['a JSON string', '"final"', 'E_JSON_ACTION_NOT_OBJECT'],
    ['an unknown type', '{"type": "tool_use", "name": "read", "arguments": {}}', 'E_JSON_ACTION_TYPE'],
    ['no type', '{"content": "hi"}', 'E_JSON_ACTION_TYPE'],
    ['an unknown tool', '{"type": "tool_call", "name": "delete_all", "arguments": {}}', 'E_JSON_ACTION_UNKNOWN_TOOL'],
    [
      'arguments as an array',
      '{"type": "tool_call", "name": "read", "arguments": ["a.txt"]}',
      'E_JSON_ACTION_ARGUMENTS',
    ],
    [
      'arguments as a JSON string',
      '{"type": "tool_call", "name": "read", "arguments": "{\\"path\\": \\"a.txt\\"}"}',
      'E_JSON_ACTION_ARGUMENTS',
    ],
    ['arguments missing', '{"type": "tool_call", "name": "read"}', 'E_JSON_ACTION_ARGUMENTS'],
    ['a tool_call without a name', '{"type": "tool_call", "arguments": {}}', 'E_JSON_ACTION_FIELDS'],
    ['a final without content', '{"type": "final", "text": "hi"}', 'E_JSON_ACTION_FIELDS'],
    ['a final whose content is not a string', '{"type": "final", "content": 42}', 'E_JSON_ACTION_FIELDS'],
    ['an ask_user with an empty question', '{"type": "ask_user", "question": " "}', 'E_JSON_ACTION_FIELDS'],
    ['an extra key', '{"type": "final", "content": "hi", "thought": "x"}', 'E_JSON_ACTION_FIELDS'],
  ];
  it.each(malformed)('refuses %s with its code and a sentence saying what to send', (_name, reply, code) => {
    const parsed = parseJsonAction(reply, TOOLS);
    expect(parsed).toMatchObject({ ok: false, code });
    expect(!parsed.ok && parsed.message).toContain('Reply with exactly one JSON object');
  });
});

describe('toolResultEnvelope', () => {
  it('is exactly one object: the result under jingwei_tool_result, then untrusted_tool_data true', () => {
    expect(toolResultEnvelope('read', true, 'he said "hi"\n')).toBe(
      '{"jingwei_tool_result":{"name":"read","ok":true,"output":"he said \\"hi\\"\\n"},"untrusted_tool_data":true}',
    );
    expect(JSON.parse(toolResultEnvelope('write', false, 'Error E_X: no'))).toEqual({
      jingwei_tool_result: { name: 'write', ok: false, output: 'Error E_X: no' },
      untrusted_tool_data: true,
    });
  });
});
