// Every module Settings → Agent offers as a toggle (OFFERED_MODULES) changes what a turn does (seed 000 §1; issue
// 20: "no setting that silently does nothing"). One table, one case per module: the same scenario runs with the
// module on and with it off (everything else equal) and each run is reduced to what that module is responsible
// for — the requests (URL, tools, messages, cache fields), the events, a refusal code. The test iterates the
// exported list itself, so a module added to it without a case here fails, and a toggle that does nothing fails
// because its two runs look alike. Node + fake IndexedDB, against the scripted model server.
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent, TurnResult } from '../agent/types';
import { createIdbMemoryStore, OFFERED_MODULES, type ModuleName, type ProfileName } from '../modules';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { saveAgentModules, saveApprovalMode, saveModel, type StoredModules } from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

interface Turn {
  events: AgentEvent[];
  result: TurnResult;
}

interface Run {
  requests: RecordedRequest[];
  turns: Turn[];
}

interface Scenario {
  profile: ProfileName;
  /** Disabled in both runs (to show the module alone); the "off" run adds the module itself. */
  disabled?: ModuleName[];
  protocol?: 'openai' | 'responses';
  /** The model config's budget.context_window; 'tight': three ~4000-byte prompts in one session cross the trigger. */
  window?: number | 'tight';
  modules?: Omit<StoredModules, 'selection'>;
  approval?: 'ask' | 'auto';
  /** Workspace files. */
  files?: Record<string, string>;
  memory?: Record<string, string>;
  /** Prompts sent one after another in one session. */
  prompts: string[];
  script: (request: RecordedRequest, index: number) => ScriptTurn;
}

interface Case extends Scenario {
  /** What the module is responsible for, as comparable data. */
  observe: (run: Run) => unknown;
  on: unknown;
  off: unknown;
}

const body = (r: RecordedRequest) => (r.body ?? {}) as Record<string, unknown>;
/** Tool names as sent (Chat Completions: {function: {name}}; Responses: {name}). */
const toolNames = (r: RecordedRequest) =>
  ((body(r).tools ?? []) as Array<{ name?: string; function?: { name: string } }>).map(
    (t) => t.function?.name ?? t.name ?? '',
  );
const hasTools = (r: RecordedRequest) => toolNames(r).length > 0;
const codes = (turn: Turn) =>
  turn.events
    .filter((e): e is Extract<AgentEvent, { type: 'tool-result' }> => e.type === 'tool-result')
    .map((e) => e.code ?? 'ok');
const stops = (run: Run) => run.turns.map((t) => t.result.error?.code ?? t.result.stopReason);
const ok = (): ScriptTurn => ({ text: 'ok' });
/**
 * A summary request carries no tools (seed 000 §7): answered with a summary, everything else with "ok". Each answer
 * reports the bytes of its request without the tool schemas as input tokens (the budget adds the schemas to an
 * anchor itself), so the usage anchor grows with the session as a real provider's would; the server's default
 * usage of 10 tokens would make any session look small.
 */
const summarising = (r: RecordedRequest): ScriptTurn => ({
  text: hasTools(r) ? 'ok' : 'SUMMARY-1',
  usage: { input: r.rawBody.length - JSON.stringify(body(r).tools ?? []).length, output: 1 },
});
const LONG = 4000;
const longPrompts = [1, 2, 3].map((n) => `PROMPT-${n} ${'x'.repeat(LONG)}`);
/** The first answer reports 900 000 input tokens: above the trigger (800 000) of a 1 000 000 window, within the window. */
const heavyFirstAnswer = (_r: RecordedRequest, i: number): ScriptTurn =>
  i === 0 ? { text: 'ok', usage: { input: 900_000, output: 10 } } : ok();
const writeCall = (_r: RecordedRequest, i: number): ScriptTurn =>
  i === 0 ? { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'x' } }] } : { text: 'done' };
const compactionObserved = (run: Run) => ({
  summaryRequests: run.requests.filter((r) => !hasTools(r)).length,
  compacted: run.turns.some((t) => t.events.some((e) => e.type === 'compacted')),
  stops: stops(run),
});
const meteredObserved = (run: Run) => ({ requests: run.requests.length, stops: stops(run) });

const CASES: Partial<Record<ModuleName, Case>> = {
  approval: {
    // The approval policy: mode auto lets write run; off, the bare gate asks (nobody to ask here: refused).
    profile: 'standard',
    approval: 'auto',
    prompts: ['go'],
    script: writeCall,
    observe: (run) => codes(run.turns[0]!),
    on: ['ok'],
    off: ['E_APPROVAL_REQUIRED'],
  },
  budget: {
    // Alone (no compaction): the provider's reported usage carries over to the next turn's estimate, so a
    // session the provider says is over the trigger is refused before its next request is sent. Off, the loop's
    // default estimate starts every turn from UTF-8 bytes.
    profile: 'standard',
    disabled: ['compact'],
    window: 1_000_000,
    prompts: ['first', 'second'],
    script: heavyFirstAnswer,
    observe: meteredObserved,
    on: { requests: 1, stops: ['stop', 'E_CONTEXT_BUDGET'] },
    off: { requests: 2, stops: ['stop', 'stop'] },
  },
  compact: {
    // A session that outgrows the window is summarised (a tool-less summary request) instead of refused.
    profile: 'standard',
    window: 'tight',
    prompts: longPrompts,
    script: summarising,
    observe: compactionObserved,
    on: { summaryRequests: 1, compacted: true, stops: ['stop', 'stop', 'stop'] },
    off: { summaryRequests: 0, compacted: false, stops: ['stop', 'stop', 'E_CONTEXT_BUDGET'] },
  },
  cache: {
    // cache.json mode openai adds a stable 64-character prompt_cache_key (seed 000 §8).
    profile: 'standard',
    modules: {
      cache: {
        enabled: true,
        mode: 'openai',
        namespace: 'default',
        stats: 'metrics/cache-stats.json',
        target_hit_ratio: 0.99,
      },
    },
    prompts: ['go'],
    script: ok,
    observe: (run) => String(body(run.requests[0]!).prompt_cache_key ?? '').length,
    on: 64,
    off: 0,
  },
  responses: {
    // The legacy Responses transformation: protocol openai speaks the Responses API.
    profile: 'full',
    prompts: ['go'],
    script: ok,
    observe: (run) => run.requests.map((r) => r.path),
    on: ['/v1/responses'],
    off: ['/v1/chat/completions'],
  },
  'responses-budget': {
    // budget's stand-in while the turn speaks the Responses API through the transformation (protocol openai with
    // `responses`; with protocol responses every responses-* module is the explicit error of seed 003).
    profile: 'full',
    disabled: ['budget', 'compact', 'responses-compact'],
    window: 1_000_000,
    prompts: ['first', 'second'],
    script: heavyFirstAnswer,
    observe: meteredObserved,
    on: { requests: 1, stops: ['stop', 'E_CONTEXT_BUDGET'] },
    off: { requests: 2, stops: ['stop', 'stop'] },
  },
  'responses-compact': {
    // compact's stand-in on the Responses API, the same way.
    profile: 'full',
    disabled: ['budget', 'compact', 'responses-budget'],
    window: 'tight',
    prompts: longPrompts,
    script: summarising,
    observe: compactionObserved,
    on: { summaryRequests: 1, compacted: true, stops: ['stop', 'stop', 'stop'] },
    off: { summaryRequests: 0, compacted: false, stops: ['stop', 'stop', 'E_CONTEXT_BUDGET'] },
  },
  memory: {
    // The memory tools, and the workspace's memory shown to the model as a context snapshot.
    profile: 'standard',
    memory: { favourite: 'MEMORY-VALUE-42' },
    prompts: ['go'],
    script: ok,
    observe: (run) => ({
      tools: toolNames(run.requests[0]!).filter((n) => n.startsWith('memory_')),
      shown: run.requests[0]!.rawBody.includes('MEMORY-VALUE-42'),
    }),
    on: { tools: ['memory_get', 'memory_set'], shown: true },
    off: { tools: [], shown: false },
  },
  skills: {
    // A SKILL.md under .agents/skills: its name and description listed, skill_load/skill_read offered.
    profile: 'standard',
    files: {
      '.agents/skills/demo/SKILL.md': '---\nname: demo-skill\ndescription: SKILL-DESCRIPTION-42\n---\nThe body.\n',
    },
    prompts: ['go'],
    script: ok,
    observe: (run) => ({
      tools: toolNames(run.requests[0]!).filter((n) => n.startsWith('skill_')),
      listed: run.requests[0]!.rawBody.includes('SKILL-DESCRIPTION-42'),
    }),
    on: { tools: ['skill_load', 'skill_read'], listed: true },
    off: { tools: [], listed: false },
  },
  web: {
    // web_search from Settings → Agent (web_fetch needs a paired bridge, none here).
    profile: 'standard',
    modules: {
      web_search: {
        url: 'http://127.0.0.1:9/find',
        method: 'GET',
        params: { q: '{query}' },
        headers: {},
        results: { items: 'hits', title: 't', url: 'u', snippet: 's' },
        max_results: 5,
      },
    },
    prompts: ['go'],
    script: ok,
    observe: (run) => toolNames(run.requests[0]!).filter((n) => n.startsWith('web_')),
    on: ['web_search'],
    off: [],
  },
};

/** Runs the scenario's prompts in one session with `disabled` switched off, everything else as the scenario says. */
async function runScenario(s: Scenario, disabled: ModuleName[], window: number): Promise<Run> {
  server = await startModelServer({ script: s.script });
  const dir = await mkdtemp(join(tmpdir(), 'every-module-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(s.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const db = await openHarnessDb(`every-module-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  const protocol = s.protocol ?? 'openai';
  await saveModel(db, null, {
    preset: null,
    config: {
      protocol,
      base_url: server.baseUrl(protocol),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 256,
      budget: { context_window: window },
    },
  });
  await saveAgentModules(db, null, { ...s.modules, selection: { profile: s.profile, disabled } });
  if (s.approval) await saveApprovalMode(db, 'ws', s.approval);
  const memory = createIdbMemoryStore(db);
  if (s.memory) await memory.update('ws', () => ({ next: { version: 1, entries: { ...s.memory } }, result: null }));
  const agent = createAppAgent({
    db,
    workspaceId: 'ws',
    fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
    memory,
    plugins: null,
    bridge: null,
  });
  const turns: Turn[] = [];
  let sessionId: string | null = null;
  for (const content of s.prompts) {
    const running = await agent.startTurn({ sessionId, content, signal: new AbortController().signal });
    sessionId = running.session.id;
    const events: AgentEvent[] = [];
    for await (const e of running.events) events.push(e);
    turns.push({ events, result: await running.events.result() });
  }
  expect(server.failures).toEqual([]);
  const requests = [...server.requests];
  await server.close();
  server = undefined;
  return { requests, turns };
}

/**
 * 'tight': a window whose trigger sits 2.5 prompts above what a fresh one-message session sends (system prompt,
 * tool schemas, context snapshot) in this very scenario, so the third ~4000-byte prompt crosses it and two do not.
 */
async function windowOf(s: Scenario): Promise<number> {
  if (s.window === undefined) return 1_000_000;
  if (s.window !== 'tight') return s.window;
  const probe = await runScenario({ ...s, prompts: ['probe'], script: ok }, s.disabled ?? [], 1_000_000);
  return Math.ceil((probe.requests[0]!.rawBody.length + 2.5 * LONG) / 0.8);
}

describe('every module Settings → Agent offers changes a turn', () => {
  it('offers modules (the list this test walks is not empty)', () => {
    expect(OFFERED_MODULES.length).toBeGreaterThan(0);
  });

  for (const name of OFFERED_MODULES) {
    it(`${name}: on and off, the same turn differs in what the module does`, async () => {
      const c = CASES[name];
      if (!c)
        throw new Error(
          `"${name}" is offered as a toggle in Settings → Agent but has no case in CASES here: add the smallest scenario whose requests, events or decisions differ with it on and off (or stop offering a module that changes nothing).`,
        );
      expect(c.on, 'a case whose expected on and off observations are equal proves nothing').not.toEqual(c.off);
      const base = c.disabled ?? [];
      expect(base, 'the case must leave the module itself enabled in the "on" run').not.toContain(name);
      const window = await windowOf(c);
      const on = await runScenario(c, base, window);
      const off = await runScenario(c, [...base, name], window);
      expect({ on: c.observe(on), off: c.observe(off) }).toEqual({ on: c.on, off: c.off });
    }, 30_000);
  }
});
