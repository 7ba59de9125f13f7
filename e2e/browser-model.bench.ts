// npm run bench: the in-browser model (issue 21) on the tiny GGUF of scripts/make-tiny-gguf.mjs (random weights),
// in Chromium through the real engine: generation under the JSON-action grammar vs free sampling, per output token
// (target ≤ 1.5: the grammar may not make a model noticeably slower), and the first token after loading (prompt
// evaluation included) vs one decode step (printed, no target). The grammar's cost is per token and independent
// of the model, so the tiny model (a decode step well under a millisecond) shows it at its largest; the same
// layout 64 times wider shows it against a decode step that costs something.
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
  '/wide.gguf': { type: 'application/octet-stream', body: makeTinyGguf({ steer: false, nEmbd: 512, nHead: 8, nFf: 2048 }) },
}));

it('the tiny model in Chromium: grammar vs free generation, first token vs a decode step', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'browserModelBench' in globalThis);
  type R = { freeMs: number; grammarMs: number; firstTokenMs: number; decodeStepMs: number };
  const run = (model: string) => page.evaluate((m) => (globalThis as unknown as { browserModelBench: { run(runs: number, model: string): Promise<R> } }).browserModelBench.run(9, m), model);
  const r = await run('/tiny.gguf');
  const w = await run('/wide.gguf');
  report('in-browser model: generation with the action grammar', `${fmt(r.grammarMs)} per token with the grammar vs ${fmt(r.freeMs)} free`, r.grammarMs / r.freeMs, 1.5);
  report('in-browser model: generation with the action grammar, 4.5M-parameter model', `${fmt(w.grammarMs)} per token with the grammar vs ${fmt(w.freeMs)} free`, w.grammarMs / w.freeMs, 1.5);
  report('in-browser model: first token after load vs one decode step', `first token ${fmt(r.firstTokenMs)} (prompt included) vs a decode step ${fmt(r.decodeStepMs)}`, r.firstTokenMs / r.decodeStepMs);
}, 300_000);
