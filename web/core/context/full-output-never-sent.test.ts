// The log keeps a long tool result whole in `_full_output`; only the bounded view may reach a model. Checked on
// the request body each built-in protocol's adapter would send (the wire form, not the history object).
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROTOCOLS, builtinAdapter } from '../providers';
import type { Message } from '../contracts/messages';
import { prepareInput } from '../transport/test-support';

const FULL = 'FULL-OUTPUT-ONLY-IN-THE-LOG '.repeat(300);
const history: Message[] = [
  { role: 'user', content: 'read it' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }],
  },
  {
    role: 'tool',
    tool_call_id: 'c1',
    content:
      'PREVIEW-SHOWN\n[result truncated: 13 of 8400 bytes shown. Read the rest with read_result {"ref":"cr1.x","offset":13}]',
    _full_output: FULL,
  },
];

describe.each(BUILTIN_PROTOCOLS)('%s request body', (protocol) => {
  it('carries the preview of a bounded tool result and never its full output', async () => {
    const prepared = await builtinAdapter(protocol).prepare(prepareInput(protocol, 'http://127.0.0.1:9/v1', history));
    const wire = JSON.stringify(prepared.body);
    expect(wire).toContain('PREVIEW-SHOWN');
    expect(wire).not.toContain('FULL-OUTPUT-ONLY-IN-THE-LOG');
    expect(wire).not.toContain('_full_output');
  });
});
