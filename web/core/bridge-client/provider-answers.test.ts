// The strict seed 003 v1 checks on what a provider worker answers through the bridge.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import { bridgeProviderAdapter, checkParsedAnswer, checkPreparedAnswer } from './provider-adapter';
import type { PrepareInput } from '../providers';
import type { BridgeClient } from './client';

const good = {
  version: 1,
  url: 'https://svc.example/v1/gen',
  body: { q: 1 },
  headers: { 'x-a': 'b' },
  auth: { header: 'authorization', prefix: 'Bearer ' },
};
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return HarnessError.isInstance(e) ? e.code : 'not a HarnessError';
  }
  return 'no error';
};

describe('provider worker answers', () => {
  it('accepts a well-formed prepare answer and an auth of null', () => {
    expect(checkPreparedAnswer(good, 'svc')).toEqual(good);
    expect(checkPreparedAnswer({ ...good, auth: null }, 'svc').auth).toBeNull();
  });

  it.each([
    ['version 2', { ...good, version: 2 }],
    ['a relative url', { ...good, url: '/v1/gen' }],
    ['a body array', { ...good, body: [] }],
    ['a numeric header', { ...good, headers: { 'x-a': 1 } }],
    ['an auth without prefix', { ...good, auth: { header: 'authorization' } }],
    ['an auth with extra fields', { ...good, auth: { header: 'a', prefix: '', key: 'x' } }],
    ['an unknown field', { ...good, stream: true }],
  ])('refuses a prepare answer with %s', (_, answer) => {
    expect(codeOf(() => checkPreparedAnswer(answer, 'svc'))).toBe('E_PROVIDER_INVALID');
  });

  it('accepts a parse answer and refuses wrong versions, shapes and roles', () => {
    const ok = {
      version: 1,
      response: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } }] },
    };
    expect(checkParsedAnswer(ok, 'svc')).toEqual(ok);
    expect(codeOf(() => checkParsedAnswer({ ...ok, version: '1' }, 'svc'))).toBe('E_PROVIDER_INVALID');
    expect(codeOf(() => checkParsedAnswer({ version: 1, response: {} }, 'svc'))).toBe('E_PROVIDER_INVALID');
    expect(
      codeOf(() =>
        checkParsedAnswer(
          { version: 1, response: { choices: [{ finish_reason: 'stop', message: { role: 'user', content: 'x' } }] } },
          'svc',
        ),
      ),
    ).toBe('E_PROVIDER_INVALID');
  });

  it('passes the worker failure on with its code, asks once, and asks for a non-streaming request', async () => {
    const calls: Array<{ step: string; data: Record<string, unknown> }> = [];
    const client = {
      provider: async (step: 'prepare' | 'parse', data: Record<string, unknown>) => {
        calls.push({ step, data });
        throw new HarnessError('E_WORKER_CRASHED', 'the worker exited (code 3).');
      },
    } as unknown as BridgeClient;
    const adapter = bridgeProviderAdapter({ protocol: 'svc', client: () => client });
    const input: PrepareInput = {
      version: 1,
      protocol: 'svc',
      base_url: 'https://svc.example',
      model: 'm',
      history: [],
      max_tokens: 5,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: false,
      extra_body: {},
      stream: true,
    };
    await expect(adapter.prepare(input)).rejects.toMatchObject({
      code: 'E_WORKER_CRASHED',
      message: expect.stringContaining('not retried'),
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.data).toMatchObject({ version: 1, protocol: 'svc', stream: false });
  });

  it('sends a provider worker the history without the host’s records (whole tool output, usage, approval, turn id)', async () => {
    let sent: Record<string, unknown> | undefined;
    const client = {
      provider: async (_step: string, data: Record<string, unknown>) => ((sent = data), good),
    } as unknown as BridgeClient;
    const adapter = bridgeProviderAdapter({ protocol: 'svc', client: () => client });
    const history: PrepareInput['history'] = [
      { role: 'user', content: 'q', _turn: 'turn-id' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
        _usage: {
          input_tokens: 424242,
          output_tokens: 1,
          cache_read_tokens: 0,
          cache_write_tokens: 0,
          reported: { input: true, output: true, cache: true },
          duration_ms: 1,
          protocol: 'svc',
          model: 'm',
        },
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: 'preview',
        _full_output: 'WHOLE-OUTPUT'.repeat(1000),
        _approval: { by: 'person' },
      },
    ];
    await adapter.prepare({
      version: 1,
      protocol: 'svc',
      base_url: 'https://svc.example',
      model: 'm',
      history,
      max_tokens: 5,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: false,
      extra_body: {},
      stream: true,
    });
    const text = JSON.stringify(sent);
    for (const marker of ['WHOLE-OUTPUT', '_full_output', '424242', '_usage', '_approval', 'turn-id'])
      expect(text).not.toContain(marker);
    expect(text).toContain('preview');
    // The caller's history is not changed.
    expect(history[2]).toHaveProperty('_full_output');
  });
});
