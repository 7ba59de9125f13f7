// The page side of e2e/browser-model.bench.ts (bundled by esbuild): a tiny GGUF (random weights only) in the real
// engine (wllama in its Worker), generation under a grammar vs free, per output token (llama.cpp's own timing, from
// the first sampled token to the last), interleaved runs with medians; and the first token after loading vs one
// decode step. `grammars` names what to compare against free sampling: the action grammar of the built-in tools, or
// a one-rule grammar (a literal run of one byte: one parse stack, every sampled token rejected) to separate
// llama.cpp's fixed cost of checking a vocabulary from the cost of the grammar's shape.
import { coreFileTools } from '../../web/core/tools/builtin';
import { BrowserModelEngine, type Generation } from '../../web/core/browser-model/engine';
import { actionGrammar } from '../../web/core/browser-model/grammar';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const GRAMMARS = { action: actionGrammar(coreFileTools().map((t) => t.schema)), literal: 'root ::= "a"{299}' };
type Kind = 'free' | keyof typeof GRAMMARS;

const perToken = (g: Generation) =>
  g.decodeMsPerToken ?? (g.totalMs - g.firstTokenMs) / Math.max(1, g.outputTokens - 1);

async function run(runs: number, model = '/tiny.gguf', grammars: Array<keyof typeof GRAMMARS> = ['action']) {
  const engine = new BrowserModelEngine();
  const file = new File([await (await fetch(model)).arrayBuffer()], 'tiny.gguf');
  await engine.load(file, { nCtx: 8192, wasmUrl: new URL('/wllama.wasm', location.href).href });
  const never = new AbortController().signal;
  const kinds: Kind[] = ['free', ...grammars];
  const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  const firstToken: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const kind of i % 2 ? [...kinds].reverse() : kinds) {
      const grammar = kind === 'free' ? {} : { grammar: GRAMMARS[kind] };
      const g = await engine.generate({
        messages: [{ role: 'user', content: `bench ${i}` }],
        maxTokens: 300,
        seed: i + 1,
        ...grammar,
        signal: never,
        onText: () => undefined,
      });
      ms[kind].push(perToken(g));
      if (kind === 'free') firstToken.push(g.firstTokenMs);
    }
  }
  await engine.unload();
  const medians = Object.fromEntries(kinds.map((k) => [k, median(ms[k])])) as Record<Kind, number>;
  // The fastest run of each kind as well: on a shared machine the least disturbed one is the best estimate of a
  // small difference (what the grammar adds), which other processes' noise would otherwise swamp.
  const fastest = Object.fromEntries(kinds.map((k) => [k, Math.min(...ms[k])])) as Record<Kind, number>;
  return { ...medians, fastest, firstTokenMs: median(firstToken) };
}

(globalThis as unknown as { browserModelBench: { run: typeof run } }).browserModelBench = { run };
