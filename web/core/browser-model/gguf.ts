// Reads a GGUF file's header (metadata and tensor table) before llama.cpp sees it, so a file the app cannot run is
// refused with a code and a sentence instead of a crash inside WebAssembly: not a GGUF, cut short, an architecture
// or a quantisation the pinned llama.cpp (wllama 3.13.0, b12211) does not run. The header also gives the chat
// template, the trained context length and the shapes the memory estimate needs (memory.ts).
import { HarnessError } from '../contracts';

export interface GgufHeader {
  version: number;
  architecture: string;
  name: string | null;
  /** `<arch>.context_length`: the context the model was trained with (tokens). */
  contextLength: number | null;
  embeddingLength: number | null;
  blockCount: number | null;
  headCount: number | null;
  headCountKv: number | null;
  chatTemplate: string | null;
  tensorCount: number;
  /** Bytes of the header; tensor data starts at the next alignment boundary. */
  headerBytes: number;
  /** Bytes the tensors need (from the table), so a file shorter than header + data is truncated. */
  dataBytes: number;
  /** Tensor types present, by GGML type name. */
  tensorTypes: string[];
}

/** Text architectures llama.cpp b12211 runs (a list kept short on purpose: others are refused, never guessed). */
export const SUPPORTED_ARCHITECTURES = [
  'llama',
  'llama4',
  'qwen2',
  'qwen2moe',
  'qwen3',
  'qwen3moe',
  'phi2',
  'phi3',
  'gemma',
  'gemma2',
  'gemma3',
  'gemma3n',
  'mistral3',
  'granite',
  'granitemoe',
  'olmo',
  'olmo2',
  'stablelm',
  'starcoder2',
  'smollm3',
  'deepseek',
  'deepseek2',
  'internlm2',
  'exaone',
  'exaone4',
  'falcon',
  'gpt2',
  'gptneox',
  'bloom',
  'mpt',
  'starcoder',
  'refact',
  'minicpm',
  'minicpm3',
  'command-r',
  'cohere2',
  'openelm',
  'arcee',
  'ernie4_5',
  'hunyuan-dense',
  'glm4',
  'chatglm',
  'lfm2',
  'gpt-oss',
  'seed_oss',
  'apertus',
] as const;

/** GGML tensor types by number; `null` marks numbers whose layouts llama.cpp removed (repacked Q4_0_x_x, IQ4_NL_x_x). */
const GGML_TYPES: Record<number, string | null> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  4: null,
  5: null,
  6: 'Q5_0',
  7: 'Q5_1',
  8: 'Q8_0',
  9: 'Q8_1',
  10: 'Q2_K',
  11: 'Q3_K',
  12: 'Q4_K',
  13: 'Q5_K',
  14: 'Q6_K',
  15: 'Q8_K',
  16: 'IQ2_XXS',
  17: 'IQ2_XS',
  18: 'IQ3_XXS',
  19: 'IQ1_S',
  20: 'IQ4_NL',
  21: 'IQ3_S',
  22: 'IQ2_S',
  23: 'IQ4_XS',
  24: 'I8',
  25: 'I16',
  26: 'I32',
  27: 'I64',
  28: 'F64',
  29: 'IQ1_M',
  30: 'BF16',
  31: null,
  32: null,
  33: null,
  34: 'TQ1_0',
  35: 'TQ2_0',
  36: null,
  37: null,
  38: null,
  39: 'MXFP4',
};

/** Bytes per block and elements per block, for the data size of each tensor. */
const BLOCK: Record<string, [number, number]> = {
  F32: [4, 1],
  F16: [2, 1],
  BF16: [2, 1],
  F64: [8, 1],
  I8: [1, 1],
  I16: [2, 1],
  I32: [4, 1],
  I64: [8, 1],
  Q4_0: [18, 32],
  Q4_1: [20, 32],
  Q5_0: [22, 32],
  Q5_1: [24, 32],
  Q8_0: [34, 32],
  Q8_1: [36, 32],
  Q2_K: [84, 256],
  Q3_K: [110, 256],
  Q4_K: [144, 256],
  Q5_K: [176, 256],
  Q6_K: [210, 256],
  Q8_K: [292, 256],
  IQ2_XXS: [66, 256],
  IQ2_XS: [74, 256],
  IQ3_XXS: [98, 256],
  IQ1_S: [50, 256],
  IQ4_NL: [18, 32],
  IQ3_S: [110, 256],
  IQ2_S: [82, 256],
  IQ4_XS: [136, 256],
  IQ1_M: [56, 256],
  TQ1_0: [54, 256],
  TQ2_0: [66, 256],
  MXFP4: [17, 32],
};

const refuse = (code: string, message: string, data?: Record<string, unknown>) => new HarnessError(code, message, data);

/** Thrown by the cursor when the bytes end inside the header. */
class NeedMore extends Error {}

// Hostile headers must not make the reader allocate or recurse without end. A real header (a 150k-token vocabulary,
// its scores and merges) is a few MiB; 64 MiB leaves room while keeping one read bounded. GGML has 4 dimensions;
// nobody nests metadata arrays, so 4 levels is generous. Alignment is a power of two in llama.cpp (default 32).
/** The most bytes of a file read as its header. */
export const MAX_HEADER_BYTES = 64 * 1024 * 1024;
export const MAX_ARRAY_NESTING = 4;
const MAX_STRING_BYTES = 16 * 1024 * 1024;
const MAX_ALIGNMENT = 1024 * 1024;
const MAX_DIMS = 4;
/** Bytes per element of the fixed-width metadata types (strings are at least their 8-byte length). */
const WIDTH: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
/** The fewest bytes one element of a type can take: a string is its length, an array its type and count. */
const minWidth = (type: number) => WIDTH[type] ?? (type === 8 ? 8 : 12);

const damaged = (what: string, data?: Record<string, unknown>) =>
  refuse('E_GGUF_INVALID', `${what} The file is damaged or not a model; download it again or pick another file.`, data);

class Cursor {
  at = 0;
  private view: DataView;
  /** `fileSize`: counts that claim more bytes than the whole file holds are refused at once, not read towards. */
  constructor(
    private bytes: Uint8Array,
    private fileSize: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number) {
    if (this.at + n > this.bytes.length) throw new NeedMore();
  }
  /** Refuses when `count` items of at least `width` bytes each cannot fit in what is left of the file (cut short or forged: either way nothing is read towards it). */
  fits(count: number, width: number, what: string) {
    if (count * width > this.fileSize - this.at) {
      throw refuse(
        'E_GGUF_TRUNCATED',
        `The file ends inside its GGUF header (${this.fileSize} bytes): ${what} claims ${count} items, more than that holds. The download or copy was cut short, or the file is damaged; download it again.`,
        { count, size: this.fileSize },
      );
    }
  }
  u8() {
    this.need(1);
    return this.view.getUint8(this.at++);
  }
  u32() {
    this.need(4);
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  u64() {
    this.need(8);
    const v = this.view.getBigUint64(this.at, true);
    this.at += 8;
    return Number(v);
  }
  skip(n: number) {
    this.need(n);
    this.at += n;
  }
  str(): string {
    const n = this.u64();
    if (n > MAX_STRING_BYTES)
      throw damaged(`A GGUF string claims ${n} bytes (at most ${MAX_STRING_BYTES} are read).`, { bytes: n });
    this.fits(n, 1, 'a GGUF string');
    this.need(n);
    const s = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + n));
    this.at += n;
    return s;
  }
  scalar(type: number): unknown {
    switch (type) {
      case 0:
      case 1:
      case 7: {
        const v = this.u8();
        return type === 7 ? v !== 0 : v;
      }
      case 2:
      case 3:
        this.skip(2);
        return undefined;
      case 4:
        return this.u32();
      case 5: {
        const v = this.u32();
        return v | 0;
      }
      case 6: {
        this.need(4);
        const v = this.view.getFloat32(this.at, true);
        this.at += 4;
        return v;
      }
      case 8:
        return this.str();
      case 10:
      case 11:
        return this.u64();
      case 12:
        this.skip(8);
        return undefined;
      default:
        throw refuse(
          'E_GGUF_INVALID',
          `A GGUF metadata value has the unknown type ${type}. The file is damaged or from a newer format; download it again.`,
        );
    }
  }
  value(type: number, depth = 0): unknown {
    if (type !== 9) return this.scalar(type);
    if (depth >= MAX_ARRAY_NESTING)
      throw damaged(`A GGUF metadata array is nested more than ${MAX_ARRAY_NESTING} levels deep.`, {
        depth: depth + 1,
      });
    const inner = this.u32();
    const n = this.u64();
    this.fits(n, minWidth(inner), 'a GGUF metadata array');
    if (WIDTH[inner] !== undefined) {
      this.skip(n * WIDTH[inner]!); // token scores and types: not needed, skipped without decoding
      return undefined;
    }
    for (let i = 0; i < n; i++) this.value(inner, depth + 1);
    return undefined;
  }
}

/** Parses the header from the file's first bytes; throws NeedMore when they end inside it. */
function parse(bytes: Uint8Array, fileSize: number): GgufHeader {
  const c = new Cursor(bytes, fileSize);
  if (bytes.length < 4 || new TextDecoder().decode(bytes.subarray(0, 4)) !== 'GGUF') {
    throw refuse(
      'E_GGUF_NOT_GGUF',
      'This file is not a GGUF model (it does not start with "GGUF"). Pick a .gguf file made for llama.cpp.',
    );
  }
  c.skip(4);
  const version = c.u32();
  if (version !== 2 && version !== 3)
    throw refuse(
      'E_GGUF_VERSION',
      `GGUF version ${version} is not supported (2 and 3 are). Pick a file converted by a recent llama.cpp.`,
      { version },
    );
  const tensorCount = c.u64();
  const kvCount = c.u64();
  c.fits(kvCount, 13, 'the GGUF metadata count'); // a key (8-byte length), a type, a one-byte value at least
  c.fits(tensorCount, 24, 'the GGUF tensor count'); // a name, a dimension count, a type and an offset at least
  const meta = new Map<string, unknown>();
  for (let i = 0; i < kvCount; i++) {
    const key = c.str();
    const type = c.u32();
    meta.set(key, c.value(type));
  }
  const alignment = meta.has('general.alignment') ? meta.get('general.alignment') : 32;
  if (
    typeof alignment !== 'number' ||
    !Number.isInteger(alignment) ||
    alignment < 1 ||
    alignment > MAX_ALIGNMENT ||
    (alignment & (alignment - 1)) !== 0
  ) {
    throw damaged(`Its general.alignment (${String(alignment)}) is not a power of two up to ${MAX_ALIGNMENT}.`, {
      alignment: typeof alignment === 'number' ? alignment : null,
    });
  }
  const types = new Set<string>();
  let dataBytes = 0;
  for (let i = 0; i < tensorCount; i++) {
    const name = c.str();
    const dims = c.u32();
    if (dims > MAX_DIMS)
      throw damaged(`Tensor "${name.slice(0, 80)}" claims ${dims} dimensions (GGML has at most ${MAX_DIMS}).`, {
        tensor: name.slice(0, 80),
        dims,
      });
    let elements = 1;
    for (let d = 0; d < dims; d++) elements *= c.u64();
    const typeNo = c.u32();
    const offset = c.u64();
    const type = GGML_TYPES[typeNo];
    if (!type) {
      throw refuse(
        'E_GGUF_QUANTISATION',
        `Tensor "${name}" uses GGML type ${typeNo}, which this llama.cpp cannot run (removed or unknown). Pick a Q4_K_M, Q5_K_M, Q8_0 or F16 file of the model.`,
        { tensor: name, type: typeNo },
      );
    }
    types.add(type);
    const [blockBytes, blockElements] = BLOCK[type] ?? [4, 1];
    dataBytes = Math.max(dataBytes, offset + Math.ceil(elements / blockElements) * blockBytes);
  }
  const headerBytes = Math.ceil(c.at / alignment) * alignment;
  const arch = meta.get('general.architecture');
  if (typeof arch !== 'string')
    throw refuse(
      'E_GGUF_INVALID',
      'The GGUF has no general.architecture. The file is damaged or not a model; pick another file.',
    );
  const num = (k: string) => (typeof meta.get(k) === 'number' ? (meta.get(k) as number) : null);
  const header: GgufHeader = {
    version,
    architecture: arch,
    name: typeof meta.get('general.name') === 'string' ? (meta.get('general.name') as string) : null,
    contextLength: num(`${arch}.context_length`),
    embeddingLength: num(`${arch}.embedding_length`),
    blockCount: num(`${arch}.block_count`),
    headCount: num(`${arch}.attention.head_count`),
    headCountKv: num(`${arch}.attention.head_count_kv`),
    chatTemplate:
      typeof meta.get('tokenizer.chat_template') === 'string' ? (meta.get('tokenizer.chat_template') as string) : null,
    tensorCount,
    headerBytes,
    dataBytes,
    tensorTypes: [...types].sort(),
  };
  if (!(SUPPORTED_ARCHITECTURES as readonly string[]).includes(arch)) {
    throw refuse(
      'E_GGUF_ARCHITECTURE',
      `The model's architecture "${arch}" is not one this llama.cpp build runs in the browser. Pick a model of a supported family (for example llama, qwen2/qwen3, phi3, gemma).`,
      { architecture: arch },
    );
  }
  if (headerBytes + dataBytes > fileSize) {
    throw refuse(
      'E_GGUF_TRUNCATED',
      `The file ends early: it has ${fileSize} bytes, its tensors need ${headerBytes + dataBytes}. The download or copy was cut short; download it again (a URL download resumes).`,
      { size: fileSize, expected: headerBytes + dataBytes },
    );
  }
  return header;
}

/**
 * Reads as many leading bytes as the header needs (up to `maxHeaderBytes`, never the whole of a large file), then
 * parses it. A header that does not end within the cap is refused rather than read further.
 */
export async function readGgufHeader(file: Blob, o: { maxHeaderBytes?: number } = {}): Promise<GgufHeader> {
  const cap = Math.min(file.size, o.maxHeaderBytes ?? MAX_HEADER_BYTES);
  let want = Math.min(cap, 1024 * 1024);
  for (;;) {
    const bytes = new Uint8Array(await file.slice(0, want).arrayBuffer());
    try {
      return parse(bytes, file.size);
    } catch (error) {
      if (!(error instanceof NeedMore)) throw error;
      if (want >= file.size) {
        throw refuse(
          'E_GGUF_TRUNCATED',
          `The file ends inside its GGUF header (${file.size} bytes). The download or copy was cut short; download it again.`,
          { size: file.size },
        );
      }
      if (want >= cap)
        throw damaged(
          `Its GGUF header does not end within the first ${Math.round(cap / 2 ** 20)} MiB, which no real model needs.`,
          { max_header_bytes: cap },
        );
      want = Math.min(cap, want * 4);
    }
  }
}
