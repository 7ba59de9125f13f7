// Seed 000 §7 / 003 where headless `i` reads its configs: a profile that meters the budget or compacts needs
// budget.context_window (no silent skip), and protocol "responses" with the old responses hook is refused. Both
// are configuration errors: exit 2 with a stable code and the fix, before any model request.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { runCli } from './run';

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function runWith(
  model: Record<string, unknown>,
  files: Record<string, unknown> = {},
): Promise<{ code: number; stderr: string; requests: number }> {
  const root = mkdtempSync(join(tmpdir(), 'i-budget-config-'));
  roots.push(root);
  const dir = join(root, 'project');
  const configDir = join(root, 'conf');
  for (const d of [dir, configDir, join(root, 'data')]) mkdirSync(d);
  server = await startModelServer({ script: () => ({ text: 'ok' }) });
  const protocol = typeof model.protocol === 'string' ? model.protocol : 'openai';
  writeFileSync(
    join(configDir, 'model.json'),
    JSON.stringify({ base_url: server.baseUrl(protocol as 'openai'), model: 'm', max_tokens: 256, ...model }),
  );
  for (const [name, value] of Object.entries(files)) writeFileSync(join(configDir, name), JSON.stringify(value));
  let stderr = '';
  const code = await runCli({
    argv: ['-C', dir, '--config', join(configDir, 'model.json'), '-p', 'hi'],
    env: { HOME: dir, I_CONFIG_DIR: configDir, I_DATA_DIR: join(root, 'data') },
    cwd: dir,
    stdout: () => undefined,
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
  });
  return { code, stderr, requests: server.requests.length };
}

describe('headless i refuses a profile its model config cannot serve', () => {
  it('exits 2 with E_CONFIG_BUDGET_WINDOW and the file to fix when the default profile meters without a window; nothing is sent', async () => {
    const r = await runWith({});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_CONFIG_BUDGET_WINDOW');
    expect(r.stderr).toMatch(/context window of "m" is required\. Set it in .*model\.json/);
    expect(r.requests).toBe(0);
  });

  it('also refuses compaction alone (budget module disabled) without a window', async () => {
    const r = await runWith({}, { 'plugins.json': { profile: 'standard', disabled: ['budget'] } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_CONFIG_BUDGET_WINDOW');
  });

  it('runs without a window when neither the budget nor compaction is on', async () => {
    expect((await runWith({}, { 'plugins.json': { profile: 'standard', disabled: ['budget', 'compact'] } })).code).toBe(
      0,
    );
    expect(
      (
        await runWith(
          {},
          { 'plugins.json': { profile: 'standard', disabled: ['budget'] }, 'compact.json': { enabled: false } },
        )
      ).code,
    ).toBe(0);
  });

  it('runs with the window set', async () => {
    const r = await runWith({ budget: { context_window: 100_000 } });
    expect(r.code).toBe(0);
    expect(r.requests).toBe(1);
  });

  it('refuses an output reserve that leaves no room in the window, naming the key', async () => {
    const r = await runWith({ max_tokens: 256, budget: { context_window: 100_000, output_reserve: 100_000 } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_CONFIG_INVALID');
    expect(r.requests).toBe(0);
  });

  it('exits 2 with E_CONFIG_RESPONSES_HOOK for protocol "responses" under the full profile (the old hook would encode twice)', async () => {
    const r = await runWith(
      { protocol: 'responses', budget: { context_window: 100_000 } },
      { 'plugins.json': { profile: 'full', disabled: [] } },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_CONFIG_RESPONSES_HOOK');
    expect(r.requests).toBe(0);
  });
});
