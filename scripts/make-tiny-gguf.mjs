#!/usr/bin/env node
// A tiny llama-architecture GGUF (issue 21): one layer, 8-wide embeddings, seeded random F32 weights (about five
// thousand parameters), a byte-level SentencePiece vocabulary (<unk>, <s>, </s>, 256 byte tokens, three control
// tokens) and a ChatML chat template that marks a tool result's turn with <|tool_result|>, as Qwen's own template
// does for tool responses. It generates nonsense, which is the point: with a grammar its output must still be a valid
// JSON action, so tests can run a whole agent turn with no download.
// `steer` (default on) sets a handful of weights by hand on top of the random ones, so an e2e turn is the same
// every time: one attention head looks only at <|tool_result|>, and the output rows of a few bytes read its answer.
// Before any tool result the model prefers `tool_call`, the name `read` and the path STEERED_PATH (bigrams carried
// by the current byte's embedding); once a result is in its context, `final` with the text "hi". It closes strings
// and objects early otherwise. Everything else is random, and the grammar does the rest.
// `extraTokens` adds whole-word pieces to the vocabulary (the bench's grammar cost against vocabulary size).
// Usage: node scripts/make-tiny-gguf.mjs <out.gguf> [seed]. Tests import makeTinyGguf() and write it at test time.

export const TINY_CHAT_TEMPLATE =
  "{% for message in messages %}{% if message['role'] == 'user' and message['content'].startswith('{\"jingwei_tool_result\"') %}{{ '<|im_start|>tool<|tool_result|>\\n' + message['content'] + '<|im_end|>\\n' }}{% else %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** The file the steered model reads (the e2e creates it): distinct bytes, none of them a tool name's first letter. */
export const STEERED_PATH = 'notes.md';

const GGUF_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10 };
const TENSOR_F32 = 0;
const ALIGN = 32;

/** Mulberry32: a small seeded generator, so the same seed always makes the same bytes. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Writer {
  chunks = [];
  size = 0;
  push(bytes) {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }
  u32(v) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.push(b);
  }
  i32(v) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, true);
    this.push(b);
  }
  u64(v) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    this.push(b);
  }
  f32(v) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.push(b);
  }
  str(s) {
    const bytes = new TextEncoder().encode(s);
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad() {
    const n = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (n) this.push(new Uint8Array(n));
  }
  bytes() {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

function writeValue(w, type, value) {
  switch (type) {
    case 'u32':
      return w.u32(value);
    case 'i32':
      return w.i32(value);
    case 'f32':
      return w.f32(value);
    case 'bool':
      return w.push(new Uint8Array([value ? 1 : 0]));
    case 'string':
      return w.str(value);
    default:
      throw new Error(`unknown type ${type}`);
  }
}

/** The vocabulary: SentencePiece byte fallback pieces, so any text tokenizes and any byte can be generated. */
export function tinyVocab(extraTokens = 0) {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3]; // UNKNOWN, CONTROL, CONTROL
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    // Only ASCII bytes are generated (the others are UNUSED, never sampled): llama.cpp's grammar sampler can fail
    // on a multi-byte character split over byte tokens ("unexpected empty grammar stack"), which a model of random
    // weights would hit within a few hundred tokens. Real models emit whole characters as tokens.
    types.push(b >= 0x80 ? 5 : 6); // UNUSED : BYTE
  }
  // Optional whole-word pieces (lowercase letter pairs, then triples): a larger vocabulary of the same model, so the
  // bench can show how llama.cpp's grammar check grows with the number of tokens it has to test.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = (n, length) =>
    Array.from({ length }, (_, k) => letters[Math.floor(n / 26 ** (length - 1 - k)) % 26]).join('');
  for (let i = 0; i < Math.min(extraTokens, 676 + 17576); i++) {
    tokens.push(i < 676 ? word(i, 2) : word(i - 676, 3));
    types.push(1); // NORMAL
  }
  tokens.push('<|tool_result|>', '<|im_start|>', '<|im_end|>');
  types.push(3, 3, 3);
  return { tokens, types };
}

/**
 * Builds the GGUF bytes. `architecture` / `tensorType` exist so refusal tests can make a file the app must refuse
 * (an unsupported architecture or quantisation) from the same honest layout; `tensorType` only relabels the F32 data.
 */
export function makeTinyGguf({
  seed = 21,
  nEmbd = 8,
  nHead = 2,
  nFf = 16,
  nCtx = 32768,
  architecture = 'llama',
  chatTemplate = TINY_CHAT_TEMPLATE,
  tensorType = TENSOR_F32,
  steer = true,
  extraTokens = 0,
} = {}) {
  const rand = random(seed);
  const { tokens, types } = tinyVocab(extraTokens);
  const nVocab = tokens.length;
  const arch = architecture;
  const kv = [
    ['general.architecture', 'string', arch],
    ['general.name', 'string', 'i tiny test model'],
    ['general.alignment', 'u32', ALIGN],
    [`${arch}.context_length`, 'u32', nCtx],
    [`${arch}.embedding_length`, 'u32', nEmbd],
    [`${arch}.block_count`, 'u32', 1],
    [`${arch}.feed_forward_length`, 'u32', nFf],
    [`${arch}.attention.head_count`, 'u32', nHead],
    [`${arch}.attention.head_count_kv`, 'u32', nHead],
    [`${arch}.attention.layer_norm_rms_epsilon`, 'f32', 1e-5],
    [`${arch}.rope.dimension_count`, 'u32', nEmbd / nHead],
    // A huge base leaves the second rotary pair of each head practically unrotated (see `steer`).
    [`${arch}.rope.freq_base`, 'f32', steer ? 1e12 : 10000],
    [`${arch}.vocab_size`, 'u32', nVocab],
    ['tokenizer.ggml.model', 'string', 'llama'],
    ['tokenizer.ggml.tokens', 'array:string', tokens],
    ['tokenizer.ggml.scores', 'array:f32', tokens.map(() => 0)],
    ['tokenizer.ggml.token_type', 'array:i32', types],
    ['tokenizer.ggml.bos_token_id', 'u32', 1],
    ['tokenizer.ggml.eos_token_id', 'u32', tokens.indexOf('<|im_end|>')], // <|im_end|> ends a ChatML turn
    ['tokenizer.ggml.unknown_token_id', 'u32', 0],
    ['tokenizer.ggml.add_bos_token', 'bool', true],
    ['tokenizer.ggml.add_eos_token', 'bool', false],
  ];
  if (chatTemplate) kv.push(['tokenizer.chat_template', 'string', chatTemplate]);

  const weights = (n, scale) => Float32Array.from({ length: n }, () => (rand() * 2 - 1) * scale);
  const ones = (n) => new Float32Array(n).fill(1);
  const embd = weights(nEmbd * nVocab, steer ? 0.3 : 1);
  const output = weights(nEmbd * nVocab, 0.3);
  const [wq, wk, wv, wo] = [0, 1, 2, 3].map(() => weights(nEmbd * nEmbd, steer ? 0.05 : 0.5));
  const ffn = () => weights(nEmbd * nFf, steer ? 0.05 : 0.5);
  if (steer) {
    // Residual dims: 0 is a constant 1 in every token, 1 says "this is <|tool_result|>" (and after attention,
    // "a tool result is in the context"). Head 0's query reads dim 0 and its key dim 1 in the rotary pair (2, 3),
    // which a huge rope base leaves unrotated: the score is large for the marker and 0 for everything else.
    const marker = tokens.indexOf('<|tool_result|>');
    for (let t = 0; t < nVocab; t++) {
      embd[t * nEmbd] = 1;
      embd[t * nEmbd + 1] = t === marker ? 3 : 0;
      // Dims 2…7 carry the bigram codes below and nothing else, so no other token's random values start a chain.
      embd.fill(0, t * nEmbd + 2, (t + 1) * nEmbd);
      output[t * nEmbd] = 0;
      output[t * nEmbd + 1] = 0;
    }
    const row = (o, i) => o * nEmbd + i; // [in, out] tensors: out-major rows of `in` values
    for (const m of [wq, wk, wv, wo]) m.fill(0);
    wq[row(2, 0)] = 4;
    wk[row(2, 1)] = 4;
    wv[row(0, 1)] = 2; // head 0 carries the marker's dim 1 …
    wo[row(1, 0)] = 2; // … back into residual dim 1
    const byte = (c) => tokens.indexOf(`<0x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}>`);
    const prefer = (c, before, after) => {
      output[byte(c) * nEmbd] = before;
      output[byte(c) * nEmbd + 1] = after;
    };
    prefer('"', 20, 20); // close strings at once
    prefer('}', 12, 0); // and objects (not inside a final's text)
    prefer('r', 15, 0); // the tool: read
    prefer('t', 10, -10); // tool_call before any tool result …
    prefer('f', 0, 10); // … final after one,
    prefer('h', 0, 15); // whose text starts with h
    // Bigrams: the current token's code (a signed unit vector in dims 2…7 of its embedding) names the byte that
    // should follow it. A steep weight beats the closing quote, so the path spells STEERED_PATH before a tool result;
    // after one, the context flag in dim 1 (about ten times larger) outweighs the path's codes, and only the
    // much steeper h → i survives: the final answer is "hi". Each byte of the path occurs once, so one code each.
    const chain = ['"', ...STEERED_PATH];
    const codes = chain.map((_, i) => [2 + (i % 6), i < 6 ? 1 : -1]);
    const follow = (prev, next, weight) => {
      const [dim, sign] =
        codes[chain.indexOf(prev)] ??
        (() => {
          throw new Error(`no code for ${prev}`);
        })();
      embd[byte(prev) * nEmbd + dim] = sign;
      output[byte(next) * nEmbd + dim] = sign * weight;
    };
    for (let i = 0; i < STEERED_PATH.length; i++) follow(chain[i], chain[i + 1], 60);
    chain.push('h');
    codes.push([2 + ((chain.length - 1) % 6), -1]);
    follow('h', 'i', 300);
  }
  const tensors = [
    ['token_embd.weight', [nEmbd, nVocab], embd],
    ['output.weight', [nEmbd, nVocab], output],
    ['output_norm.weight', [nEmbd], ones(nEmbd)],
    ['blk.0.attn_norm.weight', [nEmbd], ones(nEmbd)],
    ['blk.0.attn_q.weight', [nEmbd, nEmbd], wq],
    ['blk.0.attn_k.weight', [nEmbd, nEmbd], wk],
    ['blk.0.attn_v.weight', [nEmbd, nEmbd], wv],
    ['blk.0.attn_output.weight', [nEmbd, nEmbd], wo],
    ['blk.0.ffn_norm.weight', [nEmbd], ones(nEmbd)],
    ['blk.0.ffn_gate.weight', [nEmbd, nFf], ffn()],
    ['blk.0.ffn_up.weight', [nEmbd, nFf], ffn()],
    ['blk.0.ffn_down.weight', [nFf, nEmbd], ffn()],
  ];

  const w = new Writer();
  w.push(new TextEncoder().encode('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, type, value] of kv) {
    w.str(key);
    if (type.startsWith('array:')) {
      const inner = type.slice(6);
      w.u32(GGUF_TYPE.array);
      w.u32(GGUF_TYPE[inner]);
      w.u64(value.length);
      for (const v of value) writeValue(w, inner, v);
    } else {
      w.u32(GGUF_TYPE[type]);
      writeValue(w, type, value);
    }
  }
  let offset = 0;
  for (const [name, dims, data] of tensors) {
    w.str(name);
    w.u32(dims.length);
    for (const d of dims) w.u64(d);
    w.u32(tensorType);
    w.u64(offset);
    offset += Math.ceil(data.byteLength / ALIGN) * ALIGN;
  }
  w.pad();
  for (const [, , data] of tensors) {
    w.push(new Uint8Array(data.buffer));
    w.pad();
  }
  return w.bytes();
}

// Run as a script (browser tests import this file too, so Node modules load only here).
if (
  globalThis.process?.argv?.[1] &&
  import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href
) {
  const { writeFileSync } = await import('node:fs');
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/make-tiny-gguf.mjs <out.gguf> [seed]');
    process.exit(2);
  }
  const bytes = makeTinyGguf({ seed: Number(process.argv[3] ?? 21) });
  writeFileSync(out, bytes);
  console.log(`${out}: ${bytes.length} bytes`);
}
