// Instruction decoder for function bodies and constant expressions. It exists so the verdict on features comes
// from our own walk, not from whichever features the engine's WebAssembly.validate happens to accept (Node 20 and
// Chromium differ). It decodes every immediate of the accepted feature set (MVP, sign extension, non-trapping
// float-to-int, bulk memory, reference types, multi-value, SIMD) and refuses the rest by family:
// atomics (0xFE), GC and typed function references (0xFB, call_ref, ref.as_non_null, br_on_*, ref types),
// exception handling (try, catch, throw, rethrow, delegate, catch_all, try_table, throw_ref, exnref),
// multi-memory (a memory index in a memarg or memory.* immediate), tail calls and relaxed SIMD.
import { refuse } from './codes';
import type { WasmReader } from './wasm-reader';

const NUMERIC_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b]);
const REF_TYPES = new Set([0x70, 0x6f]);
const GC_HEAP_TYPES = new Set([0x6e, 0x6d, 0x6c, 0x6b, 0x6a, 0x71, 0x72, 0x73]);
const EH_HEAP_TYPES = new Set([0x69, 0x74]);

function gc(r: WasmReader, what: string): never {
  throw refuse('E_WASM_GC', `The module uses ${what} (byte ${r.pos}).`, { feature: 'gc', offset: r.pos });
}
function exceptions(r: WasmReader, what: string): never {
  throw refuse('E_WASM_EXCEPTIONS', `The module uses exception handling: ${what} (byte ${r.pos}).`, {
    feature: 'exceptions',
    offset: r.pos,
  });
}
function unsupported(r: WasmReader, what: string): never {
  throw refuse('E_WASM_UNSUPPORTED', `The module uses ${what} (byte ${r.pos}).`, { offset: r.pos });
}
function multiMemory(r: WasmReader): never {
  throw refuse('E_WASM_MULTI_MEMORY', `An instruction addresses a memory other than memory 0 (byte ${r.pos}).`, {
    offset: r.pos,
  });
}

/** A value type of the accepted set; GC and exception reference types are refused by family. */
export function readValueType(r: WasmReader): number {
  const t = r.byte();
  if (NUMERIC_TYPES.has(t) || REF_TYPES.has(t)) return t;
  checkRefFamily(r, t);
  return r.invalid(`unknown value type 0x${t.toString(16)}`);
}

function checkRefFamily(r: WasmReader, t: number): void {
  if (t === 0x64 || t === 0x63) gc(r, 'typed reference types (ref / ref null)');
  if (EH_HEAP_TYPES.has(t)) exceptions(r, 'the exnref type');
  if (GC_HEAP_TYPES.has(t)) gc(r, 'GC reference types');
}

function readHeapType(r: WasmReader): void {
  const t = r.peek();
  if (REF_TYPES.has(t)) {
    r.byte();
    return;
  }
  if (GC_HEAP_TYPES.has(t) || EH_HEAP_TYPES.has(t)) checkRefFamily(r, t);
  gc(r, 'a typed function reference');
}

function readBlockType(r: WasmReader, typeCount: number): void {
  const t = r.peek();
  if (t === 0x40) {
    r.byte();
    return;
  }
  if (
    NUMERIC_TYPES.has(t) ||
    REF_TYPES.has(t) ||
    t === 0x64 ||
    t === 0x63 ||
    GC_HEAP_TYPES.has(t) ||
    EH_HEAP_TYPES.has(t)
  ) {
    readValueType(r);
    return;
  }
  const index = r.s33();
  if (index < 0 || index >= typeCount) r.invalid(`block type index ${index} out of range`);
}

function memarg(r: WasmReader): void {
  const align = r.u32();
  if (align & 0x40) multiMemory(r);
  if (align >= 0x40) r.invalid('alignment out of range');
  r.u32();
}

function memoryZero(r: WasmReader): void {
  if (r.byte() !== 0) multiMemory(r);
}

function vecOfU32(r: WasmReader): void {
  const n = r.u32();
  if (n > r.end - r.pos) r.invalid('vector longer than its section');
  for (let i = 0; i < n; i++) r.u32();
}

/** Skips one LEB128 of at most `max` bytes starting at `p`; returns the position after it, or -1 if malformed. */
function skipLeb(b: Uint8Array, p: number, end: number, max: number): number {
  for (let i = 0; i < max; i++) {
    if (p >= end) return -1;
    if (!(b[p++]! & 0x80)) return p;
  }
  return -1;
}

/**
 * Decodes instructions up to and including the `end` that closes the expression. `typeCount` bounds block type
 * indices. Structural validation (stack types, label depths) is left to WebAssembly.validate.
 *
 * The common instructions (numeric ops, locals, globals, calls, branches, constants, loads/stores) are decoded on
 * local variables; everything else goes through `slowInstruction` on the reader. An 8 MiB code section is walked
 * in a few times the engine's own validation (validate.bench.ts).
 */
export function decodeExpression(r: WasmReader, typeCount: number): void {
  const b = r.bytes;
  const end = r.end;
  let p = r.pos;
  let depth = 0;
  const malformed = (at: number, what: string): never => {
    r.pos = at;
    return r.invalid(what);
  };
  for (;;) {
    if (p >= end) malformed(p, 'expression runs past its section');
    const op = b[p++]!;
    if (op >= 0x45 && op <= 0xc4) continue; // numeric, comparison, conversion, sign extension: no immediates
    if ((op >= 0x20 && op <= 0x26) || op === 0x0c || op === 0x0d || op === 0x10 || op === 0xd2 || op === 0x41) {
      // local.*, global.*, table.get/set, br, br_if, call, ref.func, i32.const: one LEB128 of up to 5 bytes
      const q = skipLeb(b, p, end, 5);
      if (q < 0) malformed(p, 'malformed LEB128 immediate');
      p = q;
      continue;
    }
    if (op >= 0x28 && op <= 0x3e) {
      // memarg: alignment (bit 6 would announce a memory index: multi-memory), then offset
      if (p >= end) malformed(p, 'memarg runs past its section');
      const align = b[p]!;
      if (align & 0x80 || align & 0x40) {
        r.pos = p;
        memarg(r);
        p = r.pos;
        continue;
      }
      const q = skipLeb(b, p + 1, end, 5);
      if (q < 0) malformed(p, 'malformed memarg offset');
      p = q;
      continue;
    }
    if (op === 0x0b) {
      if (depth === 0) {
        r.pos = p;
        return;
      }
      depth--;
      continue;
    }
    if (op === 0x02 || op === 0x03 || op === 0x04) {
      r.pos = p;
      readBlockType(r, typeCount);
      p = r.pos;
      depth++;
      continue;
    }
    r.pos = p;
    slowInstruction(r, op);
    p = r.pos;
  }
}

/** The instructions the fast path does not handle, with `r.pos` just after the opcode byte. */
function slowInstruction(r: WasmReader, op: number): void {
  switch (op) {
    case 0x00: // unreachable
    case 0x01: // nop
    case 0x05: // else
    case 0x0f: // return
    case 0x1a: // drop
    case 0x1b: // select
    case 0xd1: // ref.is_null
      return;
    case 0x0e: // br_table
      vecOfU32(r);
      r.u32();
      return;
    case 0x11: // call_indirect
      r.u32();
      r.u32();
      return;
    case 0x1c: {
      // select t*
      const n = r.u32();
      if (n !== 1) r.invalid('typed select must name exactly one type');
      readValueType(r);
      return;
    }
    case 0x3f: // memory.size
    case 0x40: // memory.grow
      memoryZero(r);
      return;
    case 0x42:
      r.skipSigned(64);
      return;
    case 0x43:
      r.skip(4);
      return;
    case 0x44:
      r.skip(8);
      return;
    case 0xd0: // ref.null
      readHeapType(r);
      return;
    case 0x06:
      return exceptions(r, 'try');
    case 0x07:
      return exceptions(r, 'catch');
    case 0x08:
      return exceptions(r, 'throw');
    case 0x09:
      return exceptions(r, 'rethrow');
    case 0x0a:
      return exceptions(r, 'throw_ref');
    case 0x18:
      return exceptions(r, 'delegate');
    case 0x19:
      return exceptions(r, 'catch_all');
    case 0x1f:
      return exceptions(r, 'try_table');
    case 0x12:
    case 0x13:
      return unsupported(r, 'tail calls (return_call)');
    case 0x14:
    case 0x15:
      return gc(r, 'typed function references (call_ref)');
    case 0xd3:
    case 0xd4:
    case 0xd5:
    case 0xd6:
      return gc(r, 'typed references (ref.as_non_null, br_on_null, ref.eq, br_on_non_null)');
    case 0xfb:
      return gc(r, 'GC instructions (0xFB prefix)');
    case 0xfe:
      throw refuse('E_WASM_ATOMICS', `The module uses atomic instructions (0xFE prefix, byte ${r.pos - 1}).`, {
        feature: 'threads',
        offset: r.pos - 1,
      });
    case 0xfc:
      return miscPrefix(r);
    case 0xfd:
      return simdPrefix(r);
    default:
      return unsupported(r, `the unknown opcode 0x${op.toString(16)}`);
  }
}

function miscPrefix(r: WasmReader): void {
  const sub = r.u32();
  if (sub <= 7) return; // trunc_sat
  switch (sub) {
    case 8: // memory.init
      r.u32();
      memoryZero(r);
      return;
    case 9: // data.drop
    case 13: // elem.drop
    case 15: // table.grow
    case 16: // table.size
    case 17: // table.fill
      r.u32();
      return;
    case 10: // memory.copy
      memoryZero(r);
      memoryZero(r);
      return;
    case 11: // memory.fill
      memoryZero(r);
      return;
    case 12: // table.init
    case 14: // table.copy
      r.u32();
      r.u32();
      return;
    default:
      unsupported(r, `the unknown instruction 0xFC ${sub}`);
  }
}

function simdPrefix(r: WasmReader): void {
  const sub = r.u32();
  if (sub <= 11) return memarg(r); // v128.load*, v128.store
  if (sub === 12 || sub === 13) return r.skip(16); // v128.const, i8x16.shuffle
  if (sub >= 21 && sub <= 34) return r.skip(1); // extract_lane / replace_lane
  if (sub >= 84 && sub <= 91) {
    memarg(r); // v128.load*_lane / store*_lane
    return r.skip(1);
  }
  if (sub === 92 || sub === 93) return memarg(r); // v128.load32_zero / load64_zero
  if (sub > 255) unsupported(r, 'relaxed SIMD');
  // Everything else in 0..255 is a lane-wise operation without immediates.
}
