// Headless `i`'s mirror of app-agent/every-offered-module-changes-a-turn.test.ts: every module Settings → Agent
// offers (OFFERED_MODULES) changes what a run does when plugins.json turns it off (seed 000 §1; issue 20). One case
// per module, the same project and config files with the module on and off; each run is reduced to what that
// module is responsible for (requests, exit code, refusal). The list itself is walked, so a new module without a
// case fails, and a module whose two runs look alike fails. In-process through runCli, scripted model server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { OFFERED_MODULES, type ModuleName, type ProfileName } from '../modules';
import { headlessProject, type Ran } from './cli-test-kit';
import { testWorkspaceId } from './workspace-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Run {
  requests: RecordedRequest[];
  runs: Ran[];
}

interface Scenario {
  profile: ProfileName;
  /** Disabled in both runs (to show the module alone); the "off" run adds the module itself. */
  disabled?: ModuleName[];
  /** budget.context_window; 'tight': three ~4000-byte prompts in one session cross the trigger. */
  window?: number | 'tight';
  /** Config files next to model.json (plugins.json is written from profile/disabled). */
  config?: Record<string, unknown>;
  /** Project files. */
  files?: Record<string, string>;
  memory?: Record<string, string>;
  /** Prompts, one run each, in one named session. */
  prompts: string[];
  script: (request: RecordedRequest, index: number) => ScriptTurn;
}

interface Case extends Scenario {
  observe: (run: Run) => unknown;
  on: unknown;
  off: unknown;
}

const body = (r: RecordedRequest) => (r.body ?? {}) as Record<string, unknown>;
const toolNames = (r: RecordedRequest) =>
  ((body(r).tools ?? []) as Array<{ name?: string; function?: { name: string } }>).map(
    (t) => t.function?.name ?? t.name ?? '',
  );
const hasTools = (r: RecordedRequest) => toolNames(r).length > 0;
const ok = (): ScriptTurn => ({ text: 'ok' });
/** The E_ code a run stopped with (or "ok"). */
const outcome = (r: Ran) => (r.code === 0 ? 'ok' : (/^error (E_[A-Z_]+)/m.exec(r.stderr)?.[1] ?? `exit ${r.code}`));
const LONG = 4000;
const longPrompts = [1, 2, 3].map((n) => `PROMPT-${n} ${'x'.repeat(LONG)}`);
/** A summary request carries no tools (seed 000 §7): answered with a summary, everything else with "ok". */
const summarising = (r: RecordedRequest): ScriptTurn => (hasTools(r) ? ok() : { text: 'SUMMARY-1' });
/**
 * A tool call whose answer reports 2 000 000 input tokens, twice the 1 000 000 window: an overflowing usage, which
 * the budget module must not anchor on (seed 000 §7: "溢出时使用 UTF-8 字节估计"), then "done". `read` runs without
 * asking, so nobody needs to approve it here.
 */
const overflowingUsage = (_r: RecordedRequest, i: number): ScriptTurn =>
  i === 0
    ? { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }], usage: { input: 2_000_000, output: 1 } }
    : { text: 'done' };
const writeCall = (_r: RecordedRequest, i: number): ScriptTurn =>
  i === 0 ? { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'x' } }] } : { text: 'done' };
const compactionObserved = (run: Run) => ({
  summaryRequests: run.requests.filter((r) => !hasTools(r)).length,
  outcomes: run.runs.map(outcome),
});
const meteredObserved = (run: Run) => ({ requests: run.requests.length, outcomes: run.runs.map(outcome) });

const CASES: Partial<Record<ModuleName, Case>> = {
  approval: {
    profile: 'standard',
    config: { 'approval.json': { mode: 'auto' } },
    prompts: ['go'],
    script: writeCall,
    observe: (run) => /\[write\] (ok|refused\/failed: E_[A-Z_]+)/.exec(run.runs[0]!.stderr)?.[1] ?? null,
    on: 'ok',
    off: 'refused/failed: E_APPROVAL_REQUIRED',
  },
  budget: {
    // Headless runs one turn per process, so the module's anchor never carries over a run; within a turn the
    // loop's default estimate anchors on usage too. What the module alone changes here is which usage it trusts:
    // an overflowing one falls back to bytes (the request goes out), where the default estimate refuses.
    profile: 'standard',
    disabled: ['compact'],
    window: 1_000_000,
    files: { 'a.txt': 'A' },
    prompts: ['go'],
    script: overflowingUsage,
    observe: meteredObserved,
    on: { requests: 2, outcomes: ['ok'] },
    off: { requests: 1, outcomes: ['E_CONTEXT_BUDGET'] },
  },
  compact: {
    profile: 'standard',
    window: 'tight',
    prompts: longPrompts,
    script: summarising,
    observe: compactionObserved,
    on: { summaryRequests: 1, outcomes: ['ok', 'ok', 'ok'] },
    off: { summaryRequests: 0, outcomes: ['ok', 'ok', 'E_CONTEXT_BUDGET'] },
  },
  cache: {
    profile: 'standard',
    config: { 'cache.json': { mode: 'openai' } },
    prompts: ['go'],
    script: ok,
    observe: (run) => String(body(run.requests[0]!).prompt_cache_key ?? '').length,
    on: 64,
    off: 0,
  },
  responses: {
    profile: 'full',
    prompts: ['go'],
    script: ok,
    observe: (run) => run.requests.map((r) => r.path),
    on: ['/v1/responses'],
    off: ['/v1/chat/completions'],
  },
  'responses-budget': {
    // budget's stand-in while protocol openai speaks the Responses API through `responses`.
    profile: 'full',
    disabled: ['budget', 'compact', 'responses-compact'],
    window: 1_000_000,
    files: { 'a.txt': 'A' },
    prompts: ['go'],
    script: overflowingUsage,
    observe: meteredObserved,
    on: { requests: 2, outcomes: ['ok'] },
    off: { requests: 1, outcomes: ['E_CONTEXT_BUDGET'] },
  },
  'responses-compact': {
    profile: 'full',
    disabled: ['budget', 'compact', 'responses-budget'],
    window: 'tight',
    prompts: longPrompts,
    script: summarising,
    observe: compactionObserved,
    on: { summaryRequests: 1, outcomes: ['ok', 'ok', 'ok'] },
    off: { summaryRequests: 0, outcomes: ['ok', 'ok', 'E_CONTEXT_BUDGET'] },
  },
  memory: {
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
    // web_fetch (Node backend) always, web_search from web.json.
    profile: 'standard',
    config: {
      'web.json': {
        search: {
          url: 'http://127.0.0.1:9/find',
          method: 'GET',
          params: { q: '{query}' },
          results: { items: 'hits', title: 't', url: 'u', snippet: 's' },
        },
      },
    },
    prompts: ['go'],
    script: ok,
    observe: (run) =>
      toolNames(run.requests[0]!)
        .filter((n) => n.startsWith('web_'))
        .sort(),
    on: ['web_fetch', 'web_search'],
    off: [],
  },
};

async function runScenario(s: Scenario, disabled: ModuleName[], window: number): Promise<Run> {
  server = await startModelServer({ script: s.script });
  const p = headlessProject(
    { base_url: server.baseUrl('openai'), model: 'm', max_tokens: 256, budget: { context_window: window } },
    s.files,
  );
  const files = { ...s.config, 'plugins.json': { profile: s.profile, disabled } };
  for (const [name, value] of Object.entries(files)) writeFileSync(join(p.conf, name), JSON.stringify(value));
  if (s.memory) {
    const dataDir = join(p.root, 'data');
    const ws = join(dataDir, 'workspaces', testWorkspaceId(dataDir, p.dir));
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'memory.json'), JSON.stringify({ version: 1, entries: s.memory }));
  }
  const runs: Ran[] = [];
  for (const prompt of s.prompts) runs.push(await p.run(['--session-name', 's', '-p', prompt]));
  expect(server.failures).toEqual([]);
  const requests = [...server.requests];
  await server.close();
  server = undefined;
  return { requests, runs };
}

/** 'tight': the trigger sits 2.5 prompts above what a fresh one-message session of this scenario sends. */
async function windowOf(s: Scenario): Promise<number> {
  if (s.window === undefined) return 1_000_000;
  if (s.window !== 'tight') return s.window;
  const probe = await runScenario({ ...s, prompts: ['probe'], script: ok }, s.disabled ?? [], 1_000_000);
  return Math.ceil((probe.requests[0]!.rawBody.length + 2.5 * LONG) / 0.8);
}

describe('every module Settings → Agent offers changes a headless run (plugins.json)', () => {
  for (const name of OFFERED_MODULES) {
    it(`${name}: on and off, the same run differs in what the module does`, async () => {
      const c = CASES[name];
      if (!c)
        throw new Error(
          `"${name}" is offered as a module toggle but has no case in CASES here: add the smallest scenario whose requests, exit code or refusals differ with it on and off in plugins.json.`,
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
