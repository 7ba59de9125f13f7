// Settings → Agent gives the app what headless `i` reads from approval.json, compact.json / prompts.json, web.json
// and cache.json (seed 000 §4): deny_tools, the compaction prompt, web_search with a credential from the secrets
// store, and the cache namespace. Each case checks the request or decision the setting changes. Node + fake IndexedDB.
import 'fake-indexeddb/auto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { createIdbStatsStore } from '../modules';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { checkAgentModules, saveAgentModules, saveApprovalMode, saveModel, type StoredModules } from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
let search: Server | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  await new Promise((done) => (search ? search.close(done) : done(undefined)));
  server = search = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function agentWith(modules: StoredModules, script: ScriptTurn[] | ((r: RecordedRequest) => ScriptTurn)) {
  server = await startModelServer({ script });
  const dir = await mkdtemp(join(tmpdir(), 'settings-parity-'));
  dirs.push(dir);
  const db: HarnessDb = await openHarnessDb(`settings-parity-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  await saveModel(db, null, {
    preset: null,
    config: {
      base_url: server.baseUrl('openai'),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 256,
      budget: { context_window: 1_000_000 },
    },
  });
  await saveAgentModules(db, null, modules);
  await saveApprovalMode(db, 'ws', 'auto');
  const agent = createAppAgent({
    db,
    workspaceId: 'ws',
    fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
    plugins: null,
    bridge: null,
  });
  const run = async (content: string, sessionId: string | null = null, compact?: { focus?: string }) => {
    const t = await agent.startTurn({
      sessionId,
      content,
      signal: new AbortController().signal,
      ...(compact ? { compact } : {}),
    });
    const events = [];
    for await (const e of t.events) events.push(e);
    return { session: t.session.id, events, result: await t.events.result() };
  };
  return { db, run };
}

const results = (events: Array<{ type: string }>) =>
  events.filter((e) => e.type === 'tool-result') as unknown as Array<{ name: string; output: string; code?: string }>;
const toolNames = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
const writeCall: ScriptTurn[] = [
  { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'x' } }] },
  { text: 'done' },
];

describe('Settings → Agent parity with the headless config files', () => {
  it('deny_tools: a listed tool is refused even in mode auto; without the list it runs', async () => {
    const denied = await agentWith({ deny_tools: ['write'] }, writeCall);
    expect(results((await denied.run('go')).events).map((r) => r.code)).toEqual(['E_TOOL_DENIED']);
    const allowed = await agentWith({}, writeCall);
    expect(results((await allowed.run('go')).events).map((r) => r.code ?? 'ok')).toEqual(['ok']);
  });

  it('the compaction prompt replaces the built-in one in the summary request', async () => {
    const a = await agentWith({ compact_prompt: 'APP-COMPACT-PROMPT: one line only.' }, (r) =>
      toolNames(r).length ? { text: 'ok' } : { text: 'SUMMARY' },
    );
    let session: string | null = null;
    for (let i = 0; i < 3; i++) session = (await a.run(`message ${i} ${'x'.repeat(200)}`, session)).session;
    const compacted = await a.run('', session, {});
    expect(compacted.result.error).toBeUndefined();
    expect(server!.requests.at(-1)!.rawBody).toContain('APP-COMPACT-PROMPT');
  });

  it('web_search: the configured service gets the mapped query and the secret from the secrets store', async () => {
    const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    search = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ hits: [{ t: 'Result title', u: 'https://example.org/a', s: 'A snippet' }] }));
    });
    await new Promise<void>((done) => search!.listen(0, '127.0.0.1', done));
    const port = (search.address() as { port: number }).port;
    const web_search = {
      url: `http://127.0.0.1:${port}/find`,
      method: 'GET' as const,
      params: { q: '{query}', n: '{limit}' },
      headers: {},
      auth: { header: 'X-Key', prefix: 'Key ', secret: 'SEARCH_KEY' },
      results: { items: 'hits', title: 't', url: 'u', snippet: 's' },
      max_results: 5,
    };
    const a = await agentWith({ web_search }, [
      { toolCalls: [{ name: 'web_search', arguments: { query: 'solid signals' } }] },
      { text: 'done' },
    ]);
    await setSecret(a.db, 'SEARCH_KEY', 'sk-search');
    const { events } = await a.run('find it');
    expect(toolNames(server!.requests[0]!)).toContain('web_search');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/find?q=solid+signals&n=5');
    expect(seen[0]!.headers['x-key']).toBe('Key sk-search');
    const [out] = results(events);
    expect(out).toMatchObject({ name: 'web_search' });
    expect(out!.output).toContain('Result title');
    expect(out!.output).toContain('https://example.org/a');
  });

  it('no web_search tool without the setting', async () => {
    const a = await agentWith({}, [{ text: 'ok' }]);
    await a.run('hi');
    expect(toolNames(server!.requests[0]!)).not.toContain('web_search');
  });

  it('cache statistics go to the configured namespace', async () => {
    const a = await agentWith(
      { cache: { ...checkAgentModules({}).cache, namespace: 'my-workload', target_hit_ratio: 0.5 } },
      [{ text: 'ok' }],
    );
    await a.run('hi');
    expect(
      (await createIdbStatsStore(a.db, { workspaceId: 'ws', namespace: 'my-workload' }).read()).totals,
    ).toMatchObject({ prepared: 1 });
    expect((await createIdbStatsStore(a.db, { workspaceId: 'ws', namespace: 'default' }).read()).totals).toMatchObject({
      prepared: 0,
    });
  });

  it('refuses bad values with their path and writes nothing', async () => {
    expect(() => checkAgentModules({ deny_tools: ['write', 'write'] })).toThrow(/agent\.deny_tools\.1/);
    expect(() => checkAgentModules({ deny_tools: ['no spaces'] })).toThrow(/agent\.deny_tools\.0/);
    expect(() => checkAgentModules({ compact_prompt: '  ' })).toThrow(/compact_prompt/);
    expect(() =>
      checkAgentModules({
        web_search: {
          url: 'http://example.org',
          params: { q: '{query}' },
          results: { items: '', title: 't', url: 'u' },
        },
      }),
    ).toThrow(/agent\.web_search\.url/);
  });
});
