// Provider Files in the app: with Settings → Model → Images set to "files" and provider_operations in the model
// config, a pasted image is uploaded once and each request of the turn references its file_id; the Files list
// (the management channel run from the page) marks it as this app's and a delete asks first. Images alone, or
// operations alone, upload nothing. Node workspace, fake IndexedDB, scripted model server.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent } from '../agent/types';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { checkModelConfig, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';
import { manageFromPage, readProviderJson, saveProviderJson } from './provider-files-app';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

const PNG = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(5000, 3)]).toString('base64')}`;

async function setup(operations: boolean, images: 'files' | 'base64') {
  server = await startModelServer({
    script: [
      { toolCalls: [{ name: 'glob', arguments: { pattern: '*' } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '*' } }] },
      { text: 'seen' },
    ],
    files: {},
  });
  dir = await mkdtemp(join(tmpdir(), 'files-app-'));
  const db = await openHarnessDb(`files-app-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  const config = {
    budget: { context_window: 1_000_000 },
    protocol: 'anthropic',
    base_url: server.baseUrl('anthropic'),
    model: 'scripted',
    api_key_env: 'TEST_KEY',
    max_tokens: 256,
    ...(operations ? { provider_operations: true } : {}),
  };
  await saveModel(db, null, { preset: null, config });
  await saveProviderJson(db, { images, account_scope: null, expires_after_seconds: null });
  return { db, fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }), config: checkModelConfig(config) };
}

async function turn(db: HarnessDb, fs: Awaited<ReturnType<typeof setup>>['fs']) {
  const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
  const running = await agent.startTurn({
    sessionId: null,
    content: [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: PNG } },
    ],
    signal: new AbortController().signal,
  });
  const events: AgentEvent[] = [];
  for await (const e of running.events) events.push(e);
  return {
    result: await running.events.result(),
    warnings: events.flatMap((e) => (e.type === 'warning' ? [e.error.code] : [])),
  };
}

const uploads = () => server!.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files');
const model = () => server!.requests.filter((r) => r.protocol === 'anthropic');

describe('provider Files in app turns', () => {
  it('uploads a pasted image once, references it in every request, lists it as ours and asks before deleting', async () => {
    const { db, fs, config } = await setup(true, 'files');
    const { result, warnings } = await turn(db, fs);
    expect(result.stopReason).toBe('stop');
    expect(warnings).toEqual([]);
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]!.headers['x-api-key']).toBe('sk-test');
    const id = server!.files!.list()[0]!.id;
    expect(model()).toHaveLength(3);
    for (const r of model()) expect(r.rawBody).toContain(`{"type":"image","source":{"type":"file","file_id":"${id}"}}`);
    const listed = await manageFromPage(db, 'ws-1', config, { action: 'list' }, async () => true);
    expect(listed).toMatchObject({ action: 'list', files: [{ file_id: id, bytes: 5008, known: true }] });
    const asked: string[] = [];
    await expect(
      manageFromPage(db, 'ws-1', config, { action: 'delete', file_id: id }, async (q) => (asked.push(q), false)),
    ).rejects.toMatchObject({ code: 'E_PROVIDER_DELETE_DECLINED' });
    expect(asked).toHaveLength(1);
    expect(server!.files!.list()).toHaveLength(1);
    await manageFromPage(db, 'ws-1', config, { action: 'delete', file_id: id }, async () => true);
    expect(server!.files!.list()).toHaveLength(0);
  });

  it('images "files" without provider_operations uploads nothing and warns; so does operations without "files"', async () => {
    const a = await setup(false, 'files');
    const first = await turn(a.db, a.fs);
    expect(first.warnings).toContain('N_PROVIDER_FILES_NOT_AUTHORISED');
    expect(uploads()).toHaveLength(0);
    for (const r of model()) expect(r.rawBody).toContain('"type":"base64"');
    await server!.close();
    const b = await setup(true, 'base64');
    expect((await turn(b.db, b.fs)).warnings).toContain('N_PROVIDER_OPERATIONS_UNUSED');
    expect(uploads()).toHaveLength(0);
    expect(await readProviderJson(b.db)).toEqual({
      images: 'base64',
      account_scope: null,
      expires_after_seconds: null,
    });
  });
});
