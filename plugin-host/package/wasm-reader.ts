// A bounds-checked cursor over WebAssembly binary bytes (LEB128 integers, names, fixed-size immediates).
// Every overrun or malformed integer is E_WASM_INVALID, so hostile bytes never read past their section.
import { refuse } from './codes';
import { WASM_ENGINE_LIMITS } from './limits';

// One decoder for every name of every module (a module can hold a million names). ignoreBOM: an export named
// "\uFEFFmemory" is not "memory", and the engine, which never strips it, would not find "memory" either.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name the reader already checked (`nameSpan`), as a string: through the same decoder. */
export const nameText = (bytes: Uint8Array, start: number, length: number): string =>
  utf8.decode(bytes.subarray(start, start + length));

export class WasmReader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  invalid(what: string): never {
    throw refuse('E_WASM_INVALID', `Malformed module at byte ${this.pos}: ${what}.`, { offset: this.pos });
  }

  byte(): number {
    if (this.pos >= this.end) this.invalid('unexpected end of section');
    return this.bytes[this.pos++]!;
  }

  peek(): number {
    if (this.pos >= this.end) this.invalid('unexpected end of section');
    return this.bytes[this.pos]!;
  }

  skip(n: number): void {
    if (n < 0 || this.pos + n > this.end) this.invalid('immediate runs past the section');
    this.pos += n;
  }

  /** Unsigned LEB128, at most 32 bits. */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.byte();
      if (i === 4 && b & 0x70) this.invalid('u32 out of range');
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
      shift += 7;
    }
    return this.invalid('u32 too long');
  }

  /** Signed LEB128 of at most `bits` bits; the value is not needed, only its extent. */
  skipSigned(bits: 32 | 33 | 64): void {
    const max = Math.ceil(bits / 7);
    for (let i = 0; i < max; i++) {
      if (!(this.byte() & 0x80)) return;
    }
    this.invalid(`s${bits} too long`);
  }

  /** Signed LEB128 up to 33 bits as a number (block types). */
  s33(): number {
    let result = 0;
    let shift = 0;
    let b: number;
    let i = 0;
    do {
      if (i++ >= 5) this.invalid('s33 too long');
      b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (b & 0x40) result -= 2 ** shift;
    return result;
  }

  /** A count about to be read item by item, refused at the engine's limit before anything is walked. */
  count(limit: number, what: string): number {
    const n = this.u32();
    if (n > limit) {
      throw refuse('E_WASM_LIMIT', `The module declares ${n} ${what} (at most ${limit}).`, {
        offset: this.pos,
        count: n,
        limit,
        what,
      });
    }
    if (n > this.end - this.pos) this.invalid('vector longer than its section');
    return n;
  }

  /** Skips a name after checking it is UTF-8; returns its byte offset (after the length) and byte length. */
  nameSpan(): [start: number, length: number] {
    const len = this.u32();
    if (len > WASM_ENGINE_LIMITS.nameBytes) {
      throw refuse(
        'E_WASM_LIMIT',
        `A name at byte ${this.pos} is ${len} bytes (at most ${WASM_ENGINE_LIMITS.nameBytes}).`,
        { offset: this.pos },
      );
    }
    if (this.pos + len > this.end) this.invalid('name runs past the section');
    const start = this.pos;
    this.decodeName(start, len);
    this.pos += len;
    return [start, len];
  }

  name(): string {
    const [start, len] = this.nameSpan();
    return this.decodeName(start, len);
  }

  private decodeName(start: number, len: number): string {
    try {
      return utf8.decode(this.bytes.subarray(start, start + len));
    } catch {
      return this.invalid('name is not UTF-8');
    }
  }
}
