// The real engine in Chromium: the tiny seeded GGUF (scripts/make-tiny-gguf.mjs) loads in wllama's Worker and
// generates; a grammar constrains every token; abort stops mid-generation and the engine stays usable.
import { afterAll, describe, expect, it } from 'vitest';
import wasmPath from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { BrowserModelEngine } from './engine';

const wasmUrl = new URL(wasmPath, location.href).href;
const tiny = () => new File([makeTinyGguf()], 'tiny.gguf', { lastModified: 1 });
const engine = new BrowserModelEngine();
const never = () => new AbortController().signal;

describe('the browser model engine (wllama in Chromium)', () => {
  afterAll(() => engine.unload());

  it('loads the tiny GGUF with the asked context window and its own chat template, and streams tokens', async () => {
    const info = await engine.load(tiny(), { nCtx: 512, wasmUrl });
    expect(info.nCtx).toBe(512);
    expect(info.nCtxTrain).toBe(32768);
    expect(info.chatTemplate).toContain('<|im_start|>');
    let streamed = '';
    const out = await engine.generate({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 12,
      signal: never(),
      onText: (d) => (streamed += d),
    });
    expect(out.outputTokens).toBe(12);
    expect(out.finish).toBe('length');
    expect(out.promptTokens).toBeGreaterThan(0);
    expect(streamed).toBe(out.text);
  });

  it('follows a GBNF grammar token by token, whatever the random weights prefer', async () => {
    for (const seed of [1, 2, 3]) {
      const g = await engine.generate({
        messages: [{ role: 'user', content: `try ${seed}` }],
        maxTokens: 40,
        seed,
        grammar: 'root ::= "{\\"a\\":" [0-9]{1,3} "}"',
        signal: never(),
        onText: () => undefined,
      });
      expect(g.text).toMatch(/^\{"a":[0-9]{1,3}\}$/);
      expect(g.finish).toBe('stop');
    }
  });

  it('stops mid-generation when aborted, keeps the text so far, and generates again afterwards', async () => {
    const stop = new AbortController();
    let deltas = 0;
    const out = await engine.generate({
      messages: [{ role: 'user', content: 'a long one' }],
      maxTokens: 3000,
      signal: stop.signal,
      onText: () => {
        if (++deltas === 3) stop.abort();
      },
    });
    expect(deltas).toBeGreaterThanOrEqual(3);
    expect(deltas).toBeLessThan(100);
    expect(out.text.length).toBeGreaterThan(0);
    const again = await engine.generate({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 4,
      signal: never(),
      onText: () => undefined,
    });
    expect(again.outputTokens).toBe(4);
  });
});
