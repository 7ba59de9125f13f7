// Settings → Agent's module toggles change what a turn does (seed 000 §1): `responses` sends protocol openai to the
// Responses API, `approval` off takes mode auto and allow rules away (every non-free tool asks; deny rules stay).
// Each case runs the same turn with the module on and off, so a toggle that did nothing fails. Node + fake IndexedDB.
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { ModuleName } from '../modules';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { saveAgentModules, saveApprovalMode, saveApprovalRules, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function turnWith(o: {
  profile: 'standard' | 'full';
  disabled: ModuleName[];
  script: ScriptTurn[];
  mode?: 'ask' | 'auto';
  allowWrite?: boolean;
  denyWrite?: boolean;
}) {
  server = await startModelServer({ script: o.script });
  const dir = await mkdtemp(join(tmpdir(), 'module-toggles-'));
  dirs.push(dir);
  const db = await openHarnessDb(`module-toggles-${Math.random()}`);
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
  await saveAgentModules(db, null, { selection: { profile: o.profile, disabled: o.disabled } });
  if (o.mode) await saveApprovalMode(db, 'ws', o.mode);
  const rules = [
    ...(o.allowWrite ? [{ decision: 'allow' as const, tool: 'write' }] : []),
    ...(o.denyWrite ? [{ decision: 'deny' as const, tool: 'write' }] : []),
  ];
  if (rules.length) await saveApprovalRules(db, 'ws', rules);
  const agent = createAppAgent({
    db,
    workspaceId: 'ws',
    fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
    plugins: null,
    bridge: null,
  });
  const running = await agent.startTurn({ sessionId: null, content: 'go', signal: new AbortController().signal });
  const events = [];
  for await (const e of running.events) events.push(e);
  return { dir, result: await running.events.result(), events, requests: server.requests };
}

const writeCall: ScriptTurn[] = [
  { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'x' } }] },
  { text: 'done' },
];
const refusals = (events: Array<{ type: string }>) =>
  events
    .filter((e): e is { type: 'tool-result'; code?: string } & typeof e => e.type === 'tool-result')
    .map((e) => (e as { code?: string }).code ?? 'ok');

describe('the responses module (legacy Responses transformation for protocol openai)', () => {
  it('sends the turn to the Responses API under the full profile, and to Chat Completions with responses off', async () => {
    const on = await turnWith({ profile: 'full', disabled: [], script: [{ text: 'via responses' }] });
    expect(on.result.text).toBe('via responses');
    expect(on.requests.map((r) => r.path)).toEqual(['/v1/responses']);
    expect(on.requests[0]!.body).toHaveProperty('input');

    const off = await turnWith({ profile: 'full', disabled: ['responses'], script: [{ text: 'via chat' }] });
    expect(off.result.text).toBe('via chat');
    expect(off.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });

  it('is not in the standard profile: protocol openai stays on Chat Completions', async () => {
    const std = await turnWith({ profile: 'standard', disabled: [], script: [{ text: 'ok' }] });
    expect(std.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });
});

describe('the approval module (the approval policy)', () => {
  it('mode auto runs write while the module is on; off, write asks (nobody to ask here, so it is refused)', async () => {
    const on = await turnWith({ profile: 'standard', disabled: [], mode: 'auto', script: writeCall });
    expect(refusals(on.events)).toEqual(['ok']);
    expect(existsSync(join(on.dir, 'out.txt'))).toBe(true);

    const off = await turnWith({ profile: 'standard', disabled: ['approval'], mode: 'auto', script: writeCall });
    expect(refusals(off.events)).toEqual(['E_APPROVAL_REQUIRED']);
    expect(existsSync(join(off.dir, 'out.txt'))).toBe(false);
  });

  it('an allow rule applies only while the module is on; a deny rule applies either way', async () => {
    const on = await turnWith({ profile: 'standard', disabled: [], allowWrite: true, script: writeCall });
    expect(refusals(on.events)).toEqual(['ok']);
    const off = await turnWith({ profile: 'standard', disabled: ['approval'], allowWrite: true, script: writeCall });
    expect(refusals(off.events)).toEqual(['E_APPROVAL_REQUIRED']);

    const denied = await turnWith({
      profile: 'standard',
      disabled: ['approval'],
      mode: 'auto',
      denyWrite: true,
      script: writeCall,
    });
    expect(refusals(denied.events)).toEqual(['E_TOOL_DENIED']);
  });
});
