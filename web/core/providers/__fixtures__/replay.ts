// Runs a transcribed fixture through the real transport (streamModel) with a replaying fetch.
import { streamModel } from '../../transport';
import { collect, prepareInput } from '../../transport/test-support';
import type { Message, PrepareInput } from '../../contracts/messages';
import { fixtureSse, replayFetch } from './load-fixture';

export const BASE: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  deepseek: 'https://api.deepseek.com',
  anthropic: 'https://api.anthropic.com',
  responses: 'https://api.openai.com/v1',
};

export async function replay(protocol: string, fixture: string, history: Message[], extra: Partial<PrepareInput> = {}, chunkBytes = 64) {
  const { fetch, sent } = replayFetch(fixtureSse(fixture), { chunkBytes });
  const r = await collect(streamModel({ input: prepareInput(protocol, BASE[protocol]!, history, extra), fetch, apiKeyName: 'KEY', getSecret: () => 'sk-fixture-key-000000' }));
  return { ...r, sent };
}

/** Captures the body the adapter prepares for a history, through the transport (with a trivial answer). */
export async function requestBodyFor(protocol: string, history: Message[], extra: Partial<PrepareInput> = {}) {
  const fixture = { openai: 'openai-chat-length', deepseek: 'openai-chat-length', anthropic: 'anthropic-redacted-max-tokens', responses: 'responses-incomplete' }[protocol]!;
  const { sent } = await replay(protocol, fixture, history, extra);
  return sent[0]!;
}
