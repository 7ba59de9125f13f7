// Headless `i` runs the profile's budget, compaction and cache modules and bounds long tool results (seed 000 §1,
// §7, §8; seed 002), in-process through runCli against the scripted model server.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { markedToolContent } from '../agent/native-marks';
import { runCli } from './run';
import { testWorkspaceId } from './workspace-test-kit';

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

interface Project {
  dir: string;
  configDir: string;
  dataDir: string;
  workspaceId: string;
}

function project(): Project {
  const root = mkdtempSync(join(tmpdir(), 'i-profile-'));
  roots.push(root);
  const dir = join(root, 'project');
  const configDir = join(root, 'conf');
  const dataDir = join(root, 'data');
  for (const d of [dir, configDir, dataDir]) mkdirSync(d);
  const workspaceId = testWorkspaceId(dataDir, dir);
  return { dir, configDir, dataDir, workspaceId };
}

async function run(p: Project, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: ['-C', p.dir, '--config', join(p.configDir, 'model.json'), ...args],
    env: { HOME: p.dir, I_CONFIG_DIR: p.configDir, I_DATA_DIR: p.dataDir },
    cwd: p.dir,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
  });
  return { code, stdout, stderr };
}

type Chat = Array<{ role: string; content: unknown; tool_call_id?: string }>;
const messages = (r: RecordedRequest) => (r.body as { messages: Chat }).messages;
const hasTools = (r: RecordedRequest) => Array.isArray((r.body as { tools?: unknown[] }).tools);
const text = (r: RecordedRequest) =>
  messages(r)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

/** Answers a summary request (no tools) with SUMMARY-1 and every other request with "ok". */
const summarising = (): ((r: RecordedRequest) => ScriptTurn) => (r) =>
  hasTools(r) ? { text: 'ok' } : { text: 'SUMMARY-1' };

/**
 * A context window whose trigger sits ~4000 bytes above what a fresh one-message session sends (system prompt,
 * tool schemas), so three ~1600-byte prompts in one session cross it and two do not.
 */
async function windowFor(p: Project): Promise<number> {
  server = await startModelServer({ script: () => ({ text: 'ok' }) });
  writeFileSync(
    join(p.configDir, 'model.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
    }),
  );
  expect((await run(p, ['-p', 'probe'])).code).toBe(0);
  const base = server.requests[0]!.rawBody.length;
  await server.close();
  server = undefined;
  return Math.ceil((base + 4000) / 0.8);
}

const prompt = (n: number) => `PROMPT-${n} ${'x'.repeat(1600)}`;

describe('headless i with the profile modules', () => {
  it('compacts a long session: a tool-less summary request, then the summary and the kept messages', async () => {
    const p = project();
    const window = await windowFor(p);
    server = await startModelServer({ script: summarising() });
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        base_url: server.baseUrl('openai'),
        model: 'm',
        max_tokens: 256,
        budget: { context_window: window },
      }),
    );
    for (const n of [1, 2]) expect((await run(p, ['--session-name', 's', '-p', prompt(n)])).code).toBe(0);
    expect(server.requests.every(hasTools)).toBe(true);

    const third = await run(p, ['--session-name', 's', '-p', prompt(3), '--json']);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('"compacted"');
    const [summaryRequest, next] = server.requests.slice(2);
    expect(hasTools(summaryRequest!)).toBe(false);
    expect(text(summaryRequest!)).toContain('PROMPT-1');
    expect(messages(summaryRequest!).at(-1)!.role).toBe('user');
    // The request after it: the system prompt, the summary, then the kept messages ending with the new prompt.
    const sent = messages(next!);
    expect(sent[0]!.role).toBe('system');
    expect(text(next!)).toContain('Summary of the earlier conversation:\nSUMMARY-1');
    expect(text(next!)).not.toContain('PROMPT-1');
    expect(text(next!)).toContain('PROMPT-2');
    expect(sent.at(-1)!.content).toBe(prompt(3));
    expect(server.requests).toHaveLength(4);
  });

  it('with "compact" disabled, the over-budget request is refused with E_CONTEXT_BUDGET and nothing is sent', async () => {
    const p = project();
    const window = await windowFor(p);
    writeFileSync(join(p.configDir, 'plugins.json'), JSON.stringify({ profile: 'standard', disabled: ['compact'] }));
    server = await startModelServer({ script: summarising() });
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        base_url: server.baseUrl('openai'),
        model: 'm',
        max_tokens: 256,
        budget: { context_window: window },
      }),
    );
    for (const n of [1, 2]) expect((await run(p, ['--session-name', 's', '-p', prompt(n)])).code).toBe(0);
    const third = await run(p, ['--session-name', 's', '-p', prompt(3)]);
    expect(third.code).toBe(1);
    expect(third.stderr).toMatch(/E_CONTEXT_BUDGET.*exceeds the context budget/);
    expect(server.requests).toHaveLength(2);
  });

  it('shows a huge tool result as a 512-byte preview with a read_result reference, and read_result pages it back', async () => {
    const p = project();
    const lines = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'y'.repeat(50)}`);
    writeFileSync(join(p.dir, 'big.txt'), `${lines.join('\n')}\n`);
    let call: { ref: string; offset: number } | undefined;
    server = await startModelServer({
      script: (r, i) => {
        if (i === 0) return { toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }] };
        if (i === 1) {
          const tool = messages(r).find((m) => m.role === 'tool')!.content as string;
          const m = /Read the rest with read_result (\{.*\})\]$/.exec(tool);
          if (!m) throw new Error(`no read_result reference in: ${tool.slice(-200)}`);
          call = JSON.parse(m[1]!) as { ref: string; offset: number };
          return { toolCalls: [{ name: 'read_result', arguments: call }] };
        }
        return { text: 'done' };
      },
    });
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        budget: { context_window: 1_000_000 },
        base_url: server.baseUrl('openai'),
        model: 'm',
        max_tokens: 256,
      }),
    );
    const r = await run(p, ['-p', 'read big.txt']);
    expect(server.failures).toEqual([]);
    expect(r.code).toBe(0);
    const sent = messages(server.requests[1]!).find((m) => m.role === 'tool')!.content as string;
    // The request marks the result as untrusted data on its first line; the bounded view follows.
    expect(sent.startsWith(markedToolContent(''))).toBe(true);
    const preview = sent.slice(markedToolContent('').length);
    const shown = preview.slice(0, preview.indexOf('\n[result truncated'));
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(512);
    expect(Buffer.byteLength(shown)).toBeGreaterThan(500);
    expect(preview).toMatch(/\[result truncated: \d+ of \d+ bytes shown/);
    expect(call!.ref).toMatch(/^cr1\./);
    expect(call!.offset).toBe(Buffer.byteLength(shown));
    const page = messages(server.requests[2]!)
      .filter((m) => m.role === 'tool')
      .at(-1)!.content as string;
    // The page continues exactly where the preview stopped (line 8 lies after the first 512 bytes).
    expect(page).toContain('line 008');
    expect(page).not.toMatch(/^\s*1\tline 000/);
    expect(page).toMatch(/next: read_result/);
  });

  it('writes cache statistics (observe) under I_DATA_DIR/workspaces/<id>/metrics/ without adding cache fields', async () => {
    const p = project();
    server = await startModelServer({ script: [{ text: 'ok', usage: { input: 100, output: 5 } }] });
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        budget: { context_window: 1_000_000 },
        base_url: server.baseUrl('openai'),
        model: 'm',
        max_tokens: 256,
      }),
    );
    expect((await run(p, ['-p', 'hi'])).code).toBe(0);
    const stats = JSON.parse(
      readFileSync(join(p.dataDir, 'workspaces', p.workspaceId, 'metrics', 'cache-stats.json'), 'utf8'),
    ) as { totals: Record<string, unknown>; records: Array<Record<string, unknown>> };
    expect(stats.totals).toMatchObject({ prepared: 1, observed: 1 });
    expect(stats.records[0]).toMatchObject({ class: 'new', model: 'm', input: 100 });
    expect(server.requests[0]!.body).not.toHaveProperty('prompt_cache_key');
  });
});
