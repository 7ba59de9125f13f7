// A bounds-checked cursor over WebAssembly binary bytes (LEB128 integers, names, fixed-size immediates).
// Every overrun or malformed integer is E_WASM_INVALID, so hostile bytes never read past their section.
import { refuse } from './codes';

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

  name(): string {
    const len = this.u32();
    if (this.pos + len > this.end) this.invalid('name runs past the section');
    const raw = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      return this.invalid('name is not UTF-8');
    }
  }
}
