// Issue 21: a browser-model config without budget.context_window gets, at turn start, the window the engine loads
// (the GGUF's trained context, at most 4096), so the budget counts what llama.cpp allocates instead of running with
// no budget (or refusing E_CONFIG_BUDGET_WINDOW) and hitting llama.cpp's context limit without a code.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { budgetOf } from '../agent/budget';
import { parseModelConfig } from '../config/model-config';
import { openHarnessDb } from '../storage';
import { saveModel } from './agent-settings';
import { withLoadedWindow } from './browser-model';
import { createAppAgent } from './create-app-agent';

const browser = (extra: Record<string, unknown> = {}) =>
  parseModelConfig({ protocol: 'browser', model: 'tiny.gguf', ...extra });
const opening = (bytes: Uint8Array<ArrayBuffer>) => {
  const opened: string[] = [];
  return { opened, open: async (name: string) => (opened.push(name), new Blob([bytes])) };
};

describe('the budget window of a model in the browser', () => {
  it('is the window the engine loads when the config names none: the trained context, at most 4096', async () => {
    const long = opening(makeTinyGguf({ nCtx: 32768 }));
    const c = await withLoadedWindow(browser({ budget: { output_reserve: 512 } }), long.open);
    expect(c.budget).toEqual({ output_reserve: 512, context_window: 4096 });
    expect(long.opened).toEqual(['tiny.gguf']);
    expect(budgetOf(c)?.context_window).toBe(4096);
    const short = opening(makeTinyGguf({ nCtx: 2048 }));
    expect((await withLoadedWindow(browser(), short.open)).budget).toEqual({ context_window: 2048 });
  });

  it('keeps the window a config names, and leaves other protocols alone, without opening any model', async () => {
    const o = opening(makeTinyGguf());
    expect((await withLoadedWindow(browser({ budget: { context_window: 1024 } }), o.open)).budget).toEqual({
      context_window: 1024,
    });
    const cloud = parseModelConfig({ protocol: 'openai', base_url: 'https://api.example/v1', model: 'gpt' });
    expect(await withLoadedWindow(cloud, o.open)).toBe(cloud);
    expect(o.opened).toEqual([]);
  });

  it('refuses a damaged stored model with its GGUF code when deriving the window', async () => {
    await expect(withLoadedWindow(browser(), async () => new Blob(['<html>']))).rejects.toMatchObject({
      code: 'E_GGUF_NOT_GGUF',
    });
  });
});

describe('a browser-model turn without a window in the app', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reads the stored model at turn start for its window (no OPFS here: E_BROWSER_MODEL_MISSING), instead of refusing E_CONFIG_BUDGET_WINDOW', async () => {
    dir = await mkdtemp(join(tmpdir(), 'browser-window-'));
    const db = await openHarnessDb(`browser-window-${Math.random()}`);
    await saveModel(db, null, { preset: null, config: { protocol: 'browser', model: 'tiny.gguf', max_tokens: 256 } });
    const agent = createAppAgent({
      db,
      workspaceId: 'ws',
      fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
      plugins: null,
      bridge: null,
    });
    await expect(
      agent.startTurn({ sessionId: null, content: 'hi', signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'E_BROWSER_MODEL_MISSING', message: expect.stringContaining('Settings → Model') });
  });
});
