// npm run bench: the in-browser model (issue 21) on the tiny GGUF of scripts/make-tiny-gguf.mjs (random weights),
// in Chromium through the real engine: generation under the JSON-action grammar vs free sampling, per output token
// (target ≤ 1.5: the grammar may not make a model noticeably slower), and the first token after loading (prompt
// evaluation included) vs one decode step (printed, no target).
// Where the grammar's cost goes (printed, see web/core/browser-model/CONTEXT.md): llama.cpp samples a token, checks
// that one token against the grammar, and when it is rejected, which for random weights is nearly always, checks
// the whole vocabulary and samples again. So the cost is per token and grows with the vocabulary, not the model:
// the same layout 64 times wider shows it against a decode step that costs something; the same model with 4096 more
// vocabulary entries shows how it grows; a one-rule grammar shows how little of it is the action grammar's shape.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { it } from 'vitest';
import { makeTinyGguf } from '../scripts/make-tiny-gguf.mjs';
import { fmt, report } from '../scripts/bench-kit';
import { useBenchPage } from './harness/bench-page';

const wasm = () => readFile(createRequire(import.meta.url).resolve('@wllama/wllama/esm/wasm/wllama.wasm'));
const bench = useBenchPage('browser model bench', 'bench-pages/browser-model-page.ts', async () => ({
  '/wllama.wasm': { type: 'application/wasm', body: new Uint8Array(await wasm()) },
  '/tiny.gguf': { type: 'application/octet-stream', body: makeTinyGguf({ steer: false }) },
  // The same layout 64 times wider (~4.5M parameters): a decode step that costs something, as in a real model.
  '/wide.gguf': {
    type: 'application/octet-stream',
    body: makeTinyGguf({ steer: false, nEmbd: 512, nHead: 8, nFf: 2048 }),
  },
  // The tiny model with 4096 more vocabulary entries (4358 in all): the grammar check against vocabulary size.
  '/vocab.gguf': { type: 'application/octet-stream', body: makeTinyGguf({ steer: false, extraTokens: 4096 }) },
}));

type Costs = { free: number; action?: number; literal?: number };
type R = Costs & { fastest: Costs; firstTokenMs: number };

it('the tiny model in Chromium: grammar vs free generation, first token vs a decode step', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'browserModelBench' in globalThis);
  const run = (model: string, grammars: string[], runs = 9) =>
    page.evaluate(
      ([m, g, n]) =>
        (
          globalThis as unknown as {
            browserModelBench: { run(runs: number, model: string, grammars: string[]): Promise<R> };
          }
        ).browserModelBench.run(n, m, g),
      [model, grammars, runs] as const,
    );
  const r = await run('/tiny.gguf', ['action', 'literal'], 15);
  const w = await run('/wide.gguf', ['action']);
  const v = await run('/vocab.gguf', ['action', 'literal']);
  report(
    'in-browser model: generation with the action grammar',
    `${fmt(r.action!)} per token with the grammar vs ${fmt(r.free)} free (fastest runs: ${(r.fastest.action! / r.fastest.free).toFixed(2)})`,
    r.action! / r.free,
    1.5,
  );
  report(
    'in-browser model: generation with the action grammar, 4.5M-parameter model',
    `${fmt(w.action!)} per token with the grammar vs ${fmt(w.free)} free (fastest runs: ${(w.fastest.action! / w.fastest.free).toFixed(2)})`,
    w.action! / w.free,
    1.5,
  );
  report(
    'in-browser model: first token after load vs one decode step',
    `first token ${fmt(r.firstTokenMs)} (prompt included) vs a decode step ${fmt(r.free)}`,
    r.firstTokenMs / r.free,
  );
  // What the grammar adds per token, from the fastest runs (see the page), and where it comes from.
  const added = (x: R, k: 'action' | 'literal') => Math.max(1e-6, x.fastest[k]! - x.fastest.free);
  report(
    'in-browser model: grammar cost per token, the action grammar vs a one-rule grammar (262 tokens)',
    `${fmt(added(r, 'action'))} vs ${fmt(added(r, 'literal'))} added to ${fmt(r.fastest.free)}`,
    added(r, 'action') / added(r, 'literal'),
  );
  report(
    'in-browser model: grammar cost per rejected token (one-rule grammar), 4358-token vocabulary vs 262',
    `${fmt(added(v, 'literal'))} vs ${fmt(added(r, 'literal'))} added (free: ${fmt(v.fastest.free)} vs ${fmt(r.fastest.free)}; action grammar: ${fmt(added(v, 'action'))}, fewer tokens rejected when words are in the vocabulary)`,
    added(v, 'literal') / added(r, 'literal'),
  );
}, 300_000);
