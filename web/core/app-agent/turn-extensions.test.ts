// The extension builder with a bridge whose manifest hooks subscribe to `*` (seed 000 §1): they run for every event.
import { describe, expect, it } from 'vitest';
import type { BridgeClient, BridgeManifest } from '../bridge-client';
import { HookPipeline } from '../hooks';
import { turnExtensions } from './turn-extensions';

function fakeBridge(hooks: BridgeManifest['hooks']) {
  const calls: { event: string; data: Record<string, unknown> }[] = [];
  const client: BridgeClient = {
    url: 'http://127.0.0.1:7331',
    pair: () => Promise.reject(new Error('not used')),
    status: () => Promise.reject(new Error('not used')),
    manifest: async () => ({ tools: [], hooks, provider: false }),
    callTool: () => Promise.reject(new Error('not used')),
    runHooks: async (event, data) => (calls.push({ event, data }), { ...data, seen: event }),
  };
  const connection = { url: client.url, root: '/work', pairedAt: 1 };
  return { calls, bridge: async () => ({ client, connection }) };
}

const ports = (bridge: ReturnType<typeof fakeBridge>['bridge']) => ({
  workspaceId: 'ws-1',
  approval: 'ask' as const,
  plugins: null,
  bridge,
  signal: new AbortController().signal,
});

describe('bridge hooks in a turn', () => {
  it('registers a "*" hook without an unknown-event warning and sends each event to the bridge', async () => {
    const { calls, bridge } = fakeBridge([{ events: ['*'] }, { events: ['before_turn'] }]);
    const ext = await turnExtensions(ports(bridge));
    expect(ext.warnings).toEqual([]);
    expect(ext.hooks).toHaveLength(1);
    const pipeline = new HookPipeline();
    pipeline.register(ext.hooks[0]!);
    expect([pipeline.has('session_load'), pipeline.has('after_response'), pipeline.has('before_turn')]).toEqual([
      true,
      true,
      true,
    ]);
    const ctx = { signal: new AbortController().signal };
    expect(await pipeline.handlersFor('user_input')[0]!.handle('user_input', { text: 'hi' }, ctx)).toEqual({
      text: 'hi',
      seen: 'user_input',
    });
    expect(calls.map((c) => c.event)).toEqual(['user_input']);
  });

  it('still warns about events the app does not have, and keeps the known ones', async () => {
    const { bridge } = fakeBridge([{ events: ['before_turn', 'no_such_event'] }]);
    const ext = await turnExtensions(ports(bridge));
    expect(ext.warnings).toMatchObject([{ code: 'E_HOOK_UNKNOWN_EVENT', data: { events: ['no_such_event'] } }]);
    expect(ext.hooks.map((h) => h.events)).toEqual([['before_turn']]);
  });
});
