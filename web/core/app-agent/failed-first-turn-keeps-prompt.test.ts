// A first turn the provider refuses (401) or never answers (network) keeps the person's prompt in the saved session,
// with the error on it, so a reload still shows both; the saved session is a valid history, and Retry (retryTurn
// from the history before the prompt) sends that prompt once and saves it once.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { isConsistent } from '../sessions';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import type { UserMessage } from '../contracts';
import { saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function agentOver(baseUrl: string) {
  dir = await mkdtemp(join(tmpdir(), 'failed-first-'));
  const db = await openHarnessDb(`failed-first-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test-123');
  await saveModel(db, null, {
    preset: null,
    config: {
      budget: { context_window: 1_000_000 },
      protocol: 'openai',
      base_url: baseUrl,
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 512,
    },
  });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  return createAppAgent({ db, workspaceId: 'ws-1', fs, askPerson: async () => 'allow' });
}

const signal = () => new AbortController().signal;

describe('a first turn that fails', () => {
  it('keeps the prompt with the 401 in the saved session, and Retry sends and saves it once', async () => {
    server = await startModelServer({
      script: [{ error: { status: 401, message: 'Incorrect API key provided.' } }, { text: 'Hello there.' }],
    });
    const agent = await agentOver(server.baseUrl('openai'));
    const turn = await agent.startTurn({ sessionId: null, content: 'Say hello', signal: signal() });
    const result = await turn.events.result();
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('E_PROVIDER_AUTH');

    // What a reload reads: the system prompt and the prompt, the error on it; a history that can be sent.
    const saved = await agent.store.load(turn.session.id);
    expect(saved.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const prompt = saved.messages[1] as UserMessage;
    expect(prompt.content).toBe('Say hello');
    expect(prompt._failed).toMatchObject({ code: 'E_PROVIDER_AUTH', data: { status: 401 } });
    expect(prompt._failed?.message).toContain('Incorrect API key provided.');
    expect(isConsistent(saved.messages)).toBe(true);
    expect(saved.info.title).toBe('Say hello');

    // Retry: the history before the prompt, the same prompt again.
    const retried = await agent.retryTurn({
      sessionId: turn.session.id,
      before: saved.messages.slice(0, 1),
      content: prompt.content,
      signal: signal(),
    });
    expect((await retried.events.result()).stopReason).toBe('stop');
    const sent = server.requests.at(-1)!.rawBody;
    expect(sent.match(/Say hello/g)).toHaveLength(1);
    const after = await agent.store.load(turn.session.id);
    expect(after.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(after.messages[1]).not.toHaveProperty('_failed');
    expect(after.messages.at(-1)).toMatchObject({ content: 'Hello there.' });
  });

  it('keeps the prompt when the provider cannot be reached at all', async () => {
    // Nothing listens on port 9 of this host's loopback (discard): the request fails before any answer.
    server = await startModelServer({ script: [] });
    const closed = server.baseUrl('openai');
    await server.close();
    server = undefined;
    const agent = await agentOver(closed);
    const turn = await agent.startTurn({ sessionId: null, content: 'Are you there?', signal: signal() });
    const result = await turn.events.result();
    expect(result.error?.code).toBe('E_NETWORK');
    const saved = await agent.store.load(turn.session.id);
    expect(saved.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'Are you there?',
      _failed: { code: 'E_NETWORK' },
    });
  }, 60_000);

  it('leaves a later turn that failed after its prompt was saved as it was (nothing saved twice)', async () => {
    server = await startModelServer({
      script: [{ text: 'First.' }, { error: { status: 400, message: 'Unsupported parameter.' } }],
    });
    const agent = await agentOver(server.baseUrl('openai'));
    const first = await agent.startTurn({ sessionId: null, content: 'One', signal: signal() });
    await first.events.result();
    const second = await agent.startTurn({ sessionId: first.session.id, content: 'Two', signal: signal() });
    expect((await second.events.result()).error?.code).toBe('E_PROVIDER_HTTP');
    const saved = await agent.store.load(first.session.id);
    expect(saved.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(saved.messages.at(-1)).toMatchObject({ content: 'Two', _failed: { code: 'E_PROVIDER_HTTP' } });
    expect(saved.messages.filter((m) => m.role === 'user' && m.content === 'Two')).toHaveLength(1);
  });
});
