// Refusals before loading, from crafted bytes: each one a stable code and a sentence saying what to do.
import { describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { readGgufHeader } from './gguf';
import { checkFits, estimateMemory, memoryAvailable, WASM_MEMORY_LIMIT } from './memory';

const codeOf = async (p: Promise<unknown>) => p.then(() => 'accepted', (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`);

describe('reading a GGUF header before llama.cpp sees it', () => {
  it('gives the architecture, trained context, shapes and chat template of the tiny model', async () => {
    const h = await readGgufHeader(new Blob([makeTinyGguf()]));
    expect(h).toMatchObject({ version: 3, architecture: 'llama', contextLength: 32768, embeddingLength: 8, blockCount: 1, headCount: 2, headCountKv: 2, tensorTypes: ['F32'] });
    expect(h.chatTemplate).toContain('<|im_start|>');
  });

  it('refuses a file that is not a GGUF', async () => {
    expect(await codeOf(readGgufHeader(new Blob(['<html>Not found</html>'])))).toMatch(/^E_GGUF_NOT_GGUF: .*Pick a \.gguf file/);
  });

  it('refuses a file cut inside its header, and one cut inside its tensor data', async () => {
    const bytes = makeTinyGguf();
    expect(await codeOf(readGgufHeader(new Blob([bytes.slice(0, 200)])))).toMatch(/^E_GGUF_TRUNCATED: The file ends inside its GGUF header .*download it again/);
    expect(await codeOf(readGgufHeader(new Blob([bytes.slice(0, bytes.length - 100)])))).toMatch(/^E_GGUF_TRUNCATED: The file ends early/);
  });

  it('refuses an architecture this llama.cpp does not run, naming it', async () => {
    expect(await codeOf(readGgufHeader(new Blob([makeTinyGguf({ architecture: 'rwkv7-vision' })])))).toMatch(/^E_GGUF_ARCHITECTURE: The model's architecture "rwkv7-vision"/);
  });

  it('refuses a quantisation llama.cpp removed (the repacked Q4_0_4_4, type 31)', async () => {
    expect(await codeOf(readGgufHeader(new Blob([makeTinyGguf({ tensorType: 31 })])))).toMatch(/^E_GGUF_QUANTISATION: Tensor "token_embd.weight" uses GGML type 31.*Pick a Q4_K_M/);
  });
});

describe('the memory estimate', () => {
  const header = { blockCount: 24, embeddingLength: 896, headCount: 14, headCountKv: 2 } as Parameters<typeof estimateMemory>[0];

  it('counts weights, the KV cache of the context window, compute buffers and the runtime', () => {
    const e = estimateMemory(header, 400 * 2 ** 20, 4096);
    expect(e.kvCache).toBe(2 * 24 * 4096 * 128 * 2); // K and V, f16, 2 kv heads of 64
    expect(e.total).toBe(e.weights + e.kvCache + e.compute + e.runtime);
  });

  it('refuses a model too large for what the device reports, and for the 4 GiB WebAssembly memory', () => {
    const big = estimateMemory(header, 3 * 2 ** 30, 4096);
    expect(() => checkFits(big, memoryAvailable(4), 4096)).toThrow(/needs about 3\.\d GiB .* this tab can use about 2\.0 GiB\. Pick a smaller/);
    expect(memoryAvailable(undefined)).toBe(WASM_MEMORY_LIMIT);
    expect(memoryAvailable(16)).toBe(WASM_MEMORY_LIMIT);
    expect(checkFits(estimateMemory(header, 400 * 2 ** 20, 4096), memoryAvailable(4), 4096).total).toBeLessThan(2 ** 30);
    expect(() => checkFits(big, WASM_MEMORY_LIMIT, 4096)).not.toThrow();
    expect(() => checkFits(estimateMemory(header, 5 * 2 ** 30, 4096), WASM_MEMORY_LIMIT, 4096)).toThrow(expect.objectContaining({ code: 'E_BROWSER_MODEL_TOO_LARGE' }));
  });
});
