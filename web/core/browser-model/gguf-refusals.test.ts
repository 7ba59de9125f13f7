// Refusals before loading, from crafted bytes: each one a stable code and a sentence saying what to do.
import { describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { MAX_HEADER_BYTES, readGgufHeader } from './gguf';
import { checkFits, estimateMemory, memoryAvailable, WASM_MEMORY_LIMIT } from './memory';

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
  );

describe('reading a GGUF header before llama.cpp sees it', () => {
  it('gives the architecture, trained context, shapes and chat template of the tiny model', async () => {
    const h = await readGgufHeader(new Blob([makeTinyGguf()]));
    expect(h).toMatchObject({
      version: 3,
      architecture: 'llama',
      contextLength: 32768,
      embeddingLength: 8,
      blockCount: 1,
      headCount: 2,
      headCountKv: 2,
      tensorTypes: ['F32'],
    });
    expect(h.chatTemplate).toContain('<|im_start|>');
  });

  it('refuses a file that is not a GGUF', async () => {
    expect(await codeOf(readGgufHeader(new Blob(['<html>Not found</html>'])))).toMatch(
      /^E_GGUF_NOT_GGUF: .*Pick a \.gguf file/,
    );
  });

  it('refuses a file cut inside its header, and one cut inside its tensor data', async () => {
    const bytes = makeTinyGguf();
    expect(await codeOf(readGgufHeader(new Blob([bytes.slice(0, 200)])))).toMatch(
      /^E_GGUF_TRUNCATED: The file ends inside its GGUF header .*download it again/,
    );
    expect(await codeOf(readGgufHeader(new Blob([bytes.slice(0, bytes.length - 100)])))).toMatch(
      /^E_GGUF_TRUNCATED: The file ends early/,
    );
  });

  it('refuses an architecture this llama.cpp does not run, naming it', async () => {
    expect(await codeOf(readGgufHeader(new Blob([makeTinyGguf({ architecture: 'rwkv7-vision' })])))).toMatch(
      /^E_GGUF_ARCHITECTURE: The model's architecture "rwkv7-vision"/,
    );
  });

  it('refuses a quantisation llama.cpp removed (the repacked Q4_0_4_4, type 31)', async () => {
    expect(await codeOf(readGgufHeader(new Blob([makeTinyGguf({ tensorType: 31 })])))).toMatch(
      /^E_GGUF_QUANTISATION: Tensor "token_embd.weight" uses GGML type 31.*Pick a Q4_K_M/,
    );
  });
});

// Hand-made headers: little-endian GGUF v3 with the given metadata entries and no tensors.
const u32 = (v: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
};
const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
const str = (s: string) => {
  const t = new TextEncoder().encode(s);
  return [u64(BigInt(t.length)), t];
};
const gguf = (kvCount: number, ...parts: Uint8Array<ArrayBuffer>[]) =>
  new Blob([new TextEncoder().encode('GGUF'), u32(3), u64(0n), u64(BigInt(kvCount)), ...parts]);
const arch = () => [...str('general.architecture'), u32(8), ...str('llama')];
/** Pads a header-only file to a multiple of `n` bytes, where its (empty) tensor data starts. */
const padded = async (b: Blob, n = 64) => new Blob([b, new Uint8Array((n - (b.size % n)) % n)]);

/** Records the largest slice asked of a blob, so a test can see how much the reader pulled into memory. */
function watched(blob: Blob) {
  const seen = { max: 0 };
  const slice = blob.slice.bind(blob);
  blob.slice = (start?: number, end?: number) => {
    seen.max = Math.max(seen.max, (end ?? blob.size) - (start ?? 0));
    return slice(start, end);
  };
  return { blob, seen };
}

describe('a hostile GGUF header is refused with a bound on what is read', () => {
  it('refuses at once an array claiming more elements than the file holds, reading only the first MiB', async () => {
    const { blob, seen } = watched(
      new Blob([await gguf(1, ...str('x'), u32(9), u32(4), u64(1n << 40n)).arrayBuffer(), new Uint8Array(8 * 2 ** 20)]),
    );
    expect(await codeOf(readGgufHeader(blob))).toMatch(
      /^E_GGUF_TRUNCATED: The file ends inside its GGUF header \(\d+ bytes\): a GGUF metadata array claims 1099511627776 items, .*download it again/,
    );
    expect(seen.max).toBeLessThanOrEqual(2 ** 20);
  });

  it('refuses counts of metadata entries and tensors the file cannot hold', async () => {
    expect(await codeOf(readGgufHeader(gguf(2 ** 40)))).toMatch(
      /^E_GGUF_TRUNCATED: .*: the GGUF metadata count claims 1099511627776 items/,
    );
    const tensors = new Blob([new TextEncoder().encode('GGUF'), u32(3), u64(1n << 50n), u64(0n)]);
    expect(await codeOf(readGgufHeader(tensors))).toMatch(/^E_GGUF_TRUNCATED: .*: the GGUF tensor count claims/);
  });

  it('refuses a string longer than the file', async () => {
    expect(await codeOf(readGgufHeader(gguf(1, u64(1n << 30n), new Uint8Array(64))))).toMatch(
      /^E_GGUF_INVALID: A GGUF string claims 1073741824 bytes/,
    );
  });

  it('refuses metadata arrays nested deeper than 4 levels instead of recursing until the stack runs out', async () => {
    const nest = new Uint8Array(200_000 * 12); // 200 000 levels of "an array of one array"
    for (let at = 0; at < nest.length; at += 12) nest.set([...u32(9), ...u64(1n)], at);
    expect(await codeOf(readGgufHeader(gguf(1, ...str('x'), u32(9), nest, u32(4), u64(0n))))).toMatch(
      /^E_GGUF_INVALID: A GGUF metadata array is nested more than 4 levels deep/,
    );
    // Four levels are still read.
    const four = [u32(9), u64(1n), u32(9), u64(1n), u32(9), u64(1n), u32(4), u64(1n), u32(7)];
    expect(await codeOf(readGgufHeader(await padded(gguf(2, ...str('x'), u32(9), ...four, ...arch()), 32)))).toBe(
      'accepted',
    );
  });

  it('refuses a general.alignment of 0 or one that is not a power of two (the truncation check needs it)', async () => {
    for (const a of [0, 24, 2 ** 31]) {
      const file = gguf(2, ...str('general.alignment'), u32(4), u32(a), ...arch());
      expect(await codeOf(readGgufHeader(file))).toMatch(
        new RegExp(`^E_GGUF_INVALID: Its general.alignment \\(${a}\\) is not a power of two`),
      );
    }
    expect(
      await codeOf(readGgufHeader(await padded(gguf(2, ...str('general.alignment'), u32(4), u32(64), ...arch())))),
    ).toBe('accepted');
  });

  it('refuses a header that does not end within the cap, never reading more than the cap', async () => {
    // A million empty strings: 8 MiB of honest-looking header in a 9 MiB file, read with a 2 MiB cap.
    const { blob, seen } = watched(
      new Blob([await gguf(1, ...str('x'), u32(9), u32(8), u64(1n << 20n)).arrayBuffer(), new Uint8Array(9 * 2 ** 20)]),
    );
    expect(await codeOf(readGgufHeader(blob, { maxHeaderBytes: 2 * 2 ** 20 }))).toMatch(
      /^E_GGUF_INVALID: Its GGUF header does not end within the first 2 MiB/,
    );
    expect(seen.max).toBe(2 * 2 ** 20);
    expect(MAX_HEADER_BYTES).toBe(64 * 2 ** 20);
  });
});

describe('the memory estimate', () => {
  const header = { blockCount: 24, embeddingLength: 896, headCount: 14, headCountKv: 2 } as Parameters<
    typeof estimateMemory
  >[0];

  it('counts weights, the KV cache of the context window, compute buffers and the runtime', () => {
    const e = estimateMemory(header, 400 * 2 ** 20, 4096);
    expect(e.kvCache).toBe(2 * 24 * 4096 * 128 * 2); // K and V, f16, 2 kv heads of 64
    expect(e.total).toBe(e.weights + e.kvCache + e.compute + e.runtime);
  });

  it('refuses a model too large for what the device reports, and for the 4 GiB WebAssembly memory', () => {
    const big = estimateMemory(header, 3 * 2 ** 30, 4096);
    expect(() => checkFits(big, memoryAvailable(4), 4096)).toThrow(
      /needs about 3\.\d GiB .* this tab can use about 2\.0 GiB\. Pick a smaller/,
    );
    expect(memoryAvailable(undefined)).toBe(WASM_MEMORY_LIMIT);
    expect(memoryAvailable(16)).toBe(WASM_MEMORY_LIMIT);
    expect(checkFits(estimateMemory(header, 400 * 2 ** 20, 4096), memoryAvailable(4), 4096).total).toBeLessThan(
      2 ** 30,
    );
    expect(() => checkFits(big, WASM_MEMORY_LIMIT, 4096)).not.toThrow();
    expect(() => checkFits(estimateMemory(header, 5 * 2 ** 30, 4096), WASM_MEMORY_LIMIT, 4096)).toThrow(
      expect.objectContaining({ code: 'E_BROWSER_MODEL_TOO_LARGE' }),
    );
  });
});
