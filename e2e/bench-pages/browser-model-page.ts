// The page side of e2e/browser-model.bench.ts (bundled by esbuild): the tiny GGUF (random weights only) in the
// real engine (wllama in its Worker), generation under the action grammar vs free, per output token, interleaved
// runs with medians; and the first token after loading vs one decode step.
import { coreFileTools } from '../../web/core/tools/builtin';
import { BrowserModelEngine } from '../../web/core/browser-model/engine';
import { actionGrammar } from '../../web/core/browser-model/grammar';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(runs: number, model = '/tiny.gguf') {
  const engine = new BrowserModelEngine();
  const file = new File([await (await fetch(model)).arrayBuffer()], 'tiny.gguf');
  await engine.load(file, { nCtx: 8192, wasmUrl: new URL('/wllama.wasm', location.href).href });
  const grammar = actionGrammar(coreFileTools().map((t) => t.schema));
  const never = new AbortController().signal;
  const perToken: Record<'free' | 'grammar', number[]> = { free: [], grammar: [] };
  const firstToken: number[] = [];
  const decodeStep: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const kind of i % 2 ? (['grammar', 'free'] as const) : (['free', 'grammar'] as const)) {
      const g = await engine.generate({ messages: [{ role: 'user', content: `bench ${i}` }], maxTokens: 200, seed: i + 1, ...(kind === 'grammar' ? { grammar } : {}), signal: never, onText: () => undefined });
      const decodeMs = (g.totalMs - g.firstTokenMs) / Math.max(1, g.outputTokens - 1);
      perToken[kind].push(decodeMs);
      if (kind === 'free') {
        firstToken.push(g.firstTokenMs);
        decodeStep.push(decodeMs);
      }
    }
  }
  await engine.unload();
  return { freeMs: median(perToken.free), grammarMs: median(perToken.grammar), firstTokenMs: median(firstToken), decodeStepMs: median(decodeStep) };
}

(globalThis as unknown as { browserModelBench: { run: typeof run } }).browserModelBench = { run };
