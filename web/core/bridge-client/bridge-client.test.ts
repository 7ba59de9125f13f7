import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import { getSecret, listSecretNames } from '../settings';
import { openHarnessDb } from '../storage';
import { bridgeHooks, bridgeToolSource } from './bridge-tools';
import { createBridgeClient, normalizeBridgeUrl } from './client';
import {
  BRIDGE_TOKEN_KEY,
  LEGACY_BRIDGE_TOKEN_SECRET,
  connectedBridge,
  forgetBridge,
  pairBridge,
  readBridgeConnection,
  readBridgeToken,
} from './connection';
import { startTestBridge, type TestBridge } from './test-bridge';

const WORKSPACE_ID = '0b7c3a52-6f1e-4a57-9f0e-2d8c1b9e4a10';
let bridge: TestBridge;

beforeAll(async () => {
  bridge = await startTestBridge(['http://app.test']);
}, 30_000);
afterAll(async () => {
  await bridge?.stop();
});

const codeOf = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  return HarnessError.isInstance(e) ? e.code : e;
};

describe('bridge client against a real i-bridge', () => {
  it('refuses a wrong code, pairs with the printed one, keeps the token in the secrets store and lists the tools', async () => {
    const db = await openHarnessDb(`bridge-client-${Date.now()}`);
    expect(await codeOf(pairBridge(db, bridge.url, 'AAAA-AAAA'))).toMatch(/^E_PAIR/);
    expect(await readBridgeConnection(db)).toBeUndefined();

    const { connection } = await pairBridge(db, `${bridge.url}/`, bridge.code);
    expect(connection).toMatchObject({ url: bridge.url, root: bridge.root });
    // The token lives under an internal entry no config, setting or Keys-tab name can reach.
    expect(await listSecretNames(db)).toEqual([]);
    expect((await db.get('secrets', BRIDGE_TOKEN_KEY))!.value.length).toBeGreaterThan(16);
    expect(await getSecret(db, BRIDGE_TOKEN_KEY)).toBeUndefined();
    // The code works once.
    expect(await codeOf(pairBridge(db, bridge.url, bridge.code))).toMatch(/^E_PAIR/);

    const { client } = (await connectedBridge(db))!;
    const status = await client.status();
    expect(status).toMatchObject({ name: 'i-bridge', roots: [bridge.root], hooks: 1 });
    const manifest = await client.manifest();
    expect(manifest.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'workspace_info', 'word_count']));
    expect(JSON.stringify(manifest)).not.toContain('exec');

    const tools = await bridgeToolSource(client, () => ({ workspace: connection.root }))();
    const echo = tools.find((t) => t.schema.name === 'echo')!;
    expect([echo.approval, echo.external]).toEqual(['ask', true]);
    const ctx = {
      fs: undefined as never,
      workspaceId: WORKSPACE_ID,
      callId: 'c1',
      signal: new AbortController().signal,
    };
    expect(await echo.execute({ text: 'hi from the app' }, ctx)).toEqual({ output: 'hi from the app' });
    const info = await tools.find((t) => t.schema.name === 'workspace_info')!.execute({}, ctx);
    expect(info.output).toContain(WORKSPACE_ID);

    const outside = await bridgeToolSource(client, () => ({ workspace: '/' }))();
    const refused = await outside.find((t) => t.schema.name === 'echo')!.execute({ text: 'x' }, ctx);
    expect(refused.error).toBe(true);
    expect(refused.code).toMatch(/^E_/);

    const hooks = bridgeHooks(client, () => ({ workspace: connection.root }));
    expect(await hooks.events()).toEqual(['before_turn']);

    await forgetBridge(db);
    expect(await connectedBridge(db)).toBeUndefined();
    expect(await db.getAllKeys('secrets')).toEqual([]);
    db.close();
  }, 30_000);

  it('moves a token saved as the old ordinary secret I_BRIDGE_TOKEN to the internal entry, out of every public path', async () => {
    const db = await openHarnessDb(`bridge-legacy-${Date.now()}`);
    await db.put('secrets', { name: LEGACY_BRIDGE_TOKEN_SECRET, value: 'legacy-token', updatedAt: 1 });
    await db.put('secrets', { name: 'OPENAI_API_KEY', value: 'sk-1', updatedAt: 1 });
    // Before the move it is already hidden and unreadable by name.
    expect(await listSecretNames(db)).toEqual(['OPENAI_API_KEY']);
    expect(await getSecret(db, LEGACY_BRIDGE_TOKEN_SECRET)).toBeUndefined();
    expect(await readBridgeToken(db)).toBe('legacy-token');
    expect((await db.getAllKeys('secrets')).sort()).toEqual(['OPENAI_API_KEY', BRIDGE_TOKEN_KEY]);
    expect(await readBridgeToken(db)).toBe('legacy-token');
    db.close();
  });

  it('reports a wrong token as unpaired and a foreign origin as the bridge refused it', async () => {
    const wrong = createBridgeClient({ url: bridge.url, token: 'not-the-token' });
    expect(await codeOf(wrong.status())).toBe('E_BRIDGE_UNAUTHORIZED');
    const foreign = createBridgeClient({
      url: bridge.url,
      token: 'x',
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), origin: 'https://evil.example' },
        }),
    });
    expect(await codeOf(foreign.status())).toBe('E_ORIGIN_DENIED');
  });

  it('explains an unreachable bridge with --allow-origin and the Local Network Access prompt', async () => {
    const gone = createBridgeClient({ url: 'http://127.0.0.1:9', token: 't', origin: 'http://app.test' });
    const error = await gone.status().catch((e: unknown) => e);
    expect(HarnessError.isInstance(error) && error.code).toBe('E_BRIDGE_UNREACHABLE');
    expect(String((error as Error).message)).toContain('--allow-origin http://app.test');
    expect(String((error as Error).message)).toContain('Local Network Access');
  });

  it('accepts only loopback http addresses', () => {
    expect(normalizeBridgeUrl(' http://localhost:7331/ ')).toBe('http://localhost:7331');
    for (const bad of ['https://127.0.0.1:7331', 'http://192.168.1.2:7331', 'http://127.0.0.1:7331/v1', 'nonsense']) {
      expect(() => normalizeBridgeUrl(bad)).toThrow(/127\.0\.0\.1|not a URL/);
    }
  });
});
