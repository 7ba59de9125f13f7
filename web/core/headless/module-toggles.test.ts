// plugins.json's module names change what headless `i` does (seed 000 §1), like the app's toggles: `responses`
// sends protocol openai to the Responses API, `approval` off leaves approval.json's mode and allow rules unused
// (deny_tools still apply). Each case runs with the module on and off, so a no-op toggle fails.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { headlessProject } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runWith(files: Record<string, unknown>, script: ScriptTurn[]) {
  server = await startModelServer({ script });
  const p = headlessProject({
    base_url: server.baseUrl('openai'),
    model: 'm',
    max_tokens: 256,
    budget: { context_window: 1_000_000 },
  });
  for (const [name, value] of Object.entries(files)) writeFileSync(join(p.conf, name), JSON.stringify(value));
  const ran = await p.run(['-p', 'go']);
  return { ...ran, dir: p.dir, paths: server.requests.map((r) => r.path) };
}

const writeCall: ScriptTurn[] = [
  { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'x' } }] },
  { text: 'done' },
];

describe('plugins.json module names in headless i', () => {
  it('responses: the full profile sends protocol openai to the Responses API; disabled, to Chat Completions', async () => {
    const on = await runWith({ 'plugins.json': { profile: 'full' } }, [{ text: 'via responses' }]);
    expect(on.code).toBe(0);
    expect(on.stdout).toBe('via responses\n');
    expect(on.paths).toEqual(['/v1/responses']);
    const off = await runWith({ 'plugins.json': { profile: 'full', disabled: ['responses'] } }, [{ text: 'via chat' }]);
    expect(off.paths).toEqual(['/v1/chat/completions']);
  });

  it('approval: approval.json mode auto runs write while the module is on; off, write needs a person (refused)', async () => {
    const on = await runWith({ 'approval.json': { mode: 'auto' } }, writeCall);
    expect(on.stderr).toContain('[write] ok');
    expect(existsSync(join(on.dir, 'out.txt'))).toBe(true);
    const off = await runWith(
      { 'approval.json': { mode: 'auto' }, 'plugins.json': { disabled: ['approval'] } },
      writeCall,
    );
    expect(off.stderr).toContain('[write] refused/failed: E_APPROVAL_REQUIRED');
    expect(existsSync(join(off.dir, 'out.txt'))).toBe(false);
    const denied = await runWith(
      { 'approval.json': { deny_tools: ['write'] }, 'plugins.json': { disabled: ['approval'] } },
      writeCall,
    );
    expect(denied.stderr).toContain('[write] refused/failed: E_TOOL_DENIED');
  });

  it('prompts.json "compact" is the compaction prompt of i --compact', async () => {
    server = await startModelServer({
      script: (r) => (Array.isArray((r.body as { tools?: unknown }).tools) ? { text: 'ok' } : { text: 'SUMMARY' }),
    });
    const p = headlessProject({
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
      budget: { context_window: 1_000_000 },
    });
    writeFileSync(join(p.conf, 'prompts.json'), JSON.stringify({ compact: 'compact.txt' }));
    writeFileSync(join(p.conf, 'compact.txt'), 'PROMPTS-JSON-COMPACT: summarise in one line.');
    for (let i = 0; i < 3; i++)
      expect(await p.run(['--session-name', 's', '-p', `message ${i} ${'x'.repeat(200)}`])).toMatchObject({ code: 0 });
    const compacted = await p.run(['--session-name', 's', '--compact']);
    expect(compacted.stderr).toBe('');
    expect(compacted.code).toBe(0);
    expect(server.requests.at(-1)!.rawBody).toContain('PROMPTS-JSON-COMPACT');
  });
});
