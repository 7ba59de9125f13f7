// Section walk of plugin.wasm. Produces the facts the ABI rules need (types, function types, imports, memories,
// tables, exports) and refuses features outside the accepted set while walking, so the verdict is identical in
// Node 20 and Chromium whatever their engines accept.
// Cost: every count is capped at the engine's limit as it is read (WASM_ENGINE_LIMITS), and what is kept grows
// with the items actually read, a few bytes each (U32List), never with a declared count: 2.5 million function
// types made the old walk allocate ~440 MB before the engine refused them.
import { quoteUntrusted } from '../errors';
import { refuse } from './codes';
import { WASM_ENGINE_LIMITS as MAX, WASM_LIMITS } from './limits';
import { U32List } from './u32-list';
import { decodeExpression, readValueType } from './wasm-code';
import { WasmReader, nameText } from './wasm-reader';

export interface FuncType {
  params: number[];
  results: number[];
}

export interface Limits {
  min: number;
  max: number | undefined;
  shared: boolean;
  is64: boolean;
}

export type ExportKind = 'func' | 'table' | 'memory' | 'global' | 'tag';

export interface WasmExport {
  name: string;
  kind: ExportKind;
  index: number;
}

/** Imports, tables and memories kept in full, beyond which only their number is (every rule needs no more). */
const KEPT_IMPORTS = 5;
const KEPT_TABLES = WASM_LIMITS.maxTables + 1;
const KEPT_MEMORIES = 2;

export interface WasmModuleInfo {
  bytes: Uint8Array;
  /** Byte offset of each function type (just after its 0x60), parsed again by `funcType` when a rule needs it. */
  typeOffsets: U32List;
  importCount: number;
  /** The first KEPT_IMPORTS imports, for the refusal message. */
  imports: { module: string; name: string; kind: number }[];
  /** Type index of every defined function (no function imports are allowed, so index = function index). */
  functions: U32List;
  tableCount: number;
  tables: Limits[];
  memoryCount: number;
  memories: Limits[];
  /** Four numbers per export: name offset, name length, kind, index. Names are decoded only when asked for. */
  exports: U32List;
}

export const EXPORT_KINDS = ['func', 'table', 'memory', 'global', 'tag'] as const;

// Known non-custom sections in their required order (data count 12 sits between import-related and code).
const SECTION_ORDER: Record<number, number> = {
  1: 1,
  2: 2,
  3: 3,
  4: 4,
  5: 5,
  13: 6,
  6: 7,
  7: 8,
  8: 9,
  9: 10,
  12: 11,
  10: 12,
  11: 13,
};

export function walkModule(bytes: Uint8Array): WasmModuleInfo {
  const r = new WasmReader(bytes, 0, bytes.length);
  if (bytes.length < 8 || r.byte() !== 0x00 || r.byte() !== 0x61 || r.byte() !== 0x73 || r.byte() !== 0x6d) {
    throw refuse('E_WASM_INVALID', 'plugin.wasm does not start with the WebAssembly magic bytes.');
  }
  const version = bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24);
  if (version !== 1)
    throw refuse(
      'E_WASM_INVALID',
      `plugin.wasm has binary version ${version >>> 0}, not a core module version 1 (components are refused).`,
    );
  r.pos = 8;

  const info: WasmModuleInfo = {
    bytes,
    typeOffsets: new U32List(),
    importCount: 0,
    imports: [],
    functions: new U32List(),
    tableCount: 0,
    tables: [],
    memoryCount: 0,
    memories: [],
    exports: new U32List(),
  };
  let lastOrder = 0;
  let codeCount: number | undefined;
  let customSections = 0;
  while (!r.done) {
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    if (start + size > bytes.length) r.invalid(`section ${id} runs past the end of the module`);
    const s = new WasmReader(bytes, start, start + size);
    if (id !== 0) {
      const order = SECTION_ORDER[id];
      if (order === undefined)
        throw refuse('E_WASM_UNSUPPORTED', `The module has an unknown section with id ${id}.`, { section: id });
      if (order <= lastOrder) s.invalid(`section ${id} is out of order or repeated`);
      lastOrder = order;
    }
    switch (id) {
      case 0:
        if (++customSections > MAX.customSections) {
          throw refuse('E_WASM_LIMIT', `The module has more than ${MAX.customSections} custom sections.`, {
            limit: MAX.customSections,
            what: 'custom sections',
          });
        }
        s.nameSpan(); // custom section: name checked, payload ignored
        s.pos = s.end;
        break;
      case 1:
        readTypes(s, info);
        break;
      case 2:
        readImports(s, info);
        break;
      case 3:
        vec(s, MAX.functions, 'functions', () => info.functions.push(s.u32()));
        break;
      case 4:
        info.tableCount = vec(s, MAX.tables, 'tables', () => keep(info.tables, KEPT_TABLES, readTable(s)));
        break;
      case 5:
        info.memoryCount = vec(s, MAX.memories, 'memories', () =>
          keep(info.memories, KEPT_MEMORIES, readLimits(s, 'memory')),
        );
        break;
      case 6:
        vec(s, MAX.globals, 'globals', () => {
          readValueType(s);
          const mut = s.byte();
          if (mut > 1) s.invalid('global mutability must be 0 or 1');
          decodeExpression(s, info.typeOffsets.length);
        });
        break;
      case 7:
        vec(s, MAX.exports, 'exports', () => {
          const [start, length] = s.nameSpan();
          const kind = s.byte();
          const index = s.u32();
          if (kind === 4) {
            const name = quoteUntrusted(nameText(bytes, start, length));
            throw refuse('E_WASM_EXCEPTIONS', `The module exports the exception tag ${name}.`, {
              feature: 'exceptions',
            });
          }
          if (EXPORT_KINDS[kind] === undefined) return s.invalid(`unknown export kind ${kind}`);
          info.exports.push(start);
          info.exports.push(length);
          info.exports.push(kind);
          info.exports.push(index);
        });
        break;
      case 8:
        s.u32();
        break;
      case 9:
        vec(s, MAX.elementSegments, 'element segments', () => readElement(s, info.typeOffsets.length));
        break;
      case 12:
        s.u32();
        break;
      case 10:
        codeCount = readCode(s, info.typeOffsets.length);
        break;
      case 11:
        vec(s, MAX.dataSegments, 'data segments', () => readData(s, info.typeOffsets.length));
        break;
      case 13:
        throw refuse('E_WASM_EXCEPTIONS', 'The module has a tag section (exception handling).', {
          feature: 'exceptions',
        });
    }
    if (s.pos !== s.end) s.invalid(`section ${id} has ${s.end - s.pos} unread bytes`);
    r.pos = s.end;
  }
  if ((codeCount ?? 0) !== info.functions.length) {
    throw refuse('E_WASM_INVALID', 'The function and code sections disagree on the number of functions.');
  }
  for (let i = 0; i < info.functions.length; i++) {
    const t = info.functions.at(i)!;
    if (t >= info.typeOffsets.length)
      throw refuse('E_WASM_INVALID', `A function uses type ${t}, which does not exist.`);
  }
  return info;
}

/** A vector whose count is refused past `limit` before its first item is read. */
function vec(r: WasmReader, limit: number, what: string, item: () => void): number {
  const n = r.count(limit, what);
  for (let i = 0; i < n; i++) item();
  return n;
}

function keep<T>(list: T[], max: number, item: T): void {
  if (list.length < max) list.push(item);
}

/** The function type whose entry starts at `offset` (just after its 0x60 form byte). */
export function funcType(info: WasmModuleInfo, typeIndex: number): FuncType | undefined {
  const offset = info.typeOffsets.at(typeIndex);
  if (offset === undefined) return undefined;
  const r = new WasmReader(info.bytes, offset, info.bytes.length);
  const params: number[] = [];
  const results: number[] = [];
  vec(r, MAX.functionParams, 'function parameters', () => params.push(readValueType(r)));
  vec(r, MAX.functionResults, 'function results', () => results.push(readValueType(r)));
  return { params, results };
}

/** Export `i`: its name decoded (ignoreBOM, like every name of the walk), kind and index. */
export function exportAt(info: WasmModuleInfo, i: number): WasmExport {
  const e = info.exports;
  const start = e.at(4 * i)!;
  const name = nameText(info.bytes, start, e.at(4 * i + 1)!);
  return { name, kind: EXPORT_KINDS[e.at(4 * i + 2)!]!, index: e.at(4 * i + 3)! };
}

export const exportCount = (info: WasmModuleInfo) => info.exports.length / 4;

/** The first export named exactly `name` (compared as bytes: no string is made for the others). */
export function findExport(info: WasmModuleInfo, name: string): WasmExport | undefined {
  const want = new TextEncoder().encode(name);
  const e = info.exports;
  for (let i = 0; i < exportCount(info); i++) {
    const start = e.at(4 * i)!;
    if (e.at(4 * i + 1) !== want.length) continue;
    let same = true;
    for (let k = 0; k < want.length && same; k++) same = info.bytes[start + k] === want[k];
    if (same) return exportAt(info, i);
  }
  return undefined;
}

function readTypes(r: WasmReader, info: WasmModuleInfo): void {
  vec(r, MAX.types, 'types', () => {
    const form = r.byte();
    if (form === 0x4e || form === 0x50 || form === 0x4f || form === 0x5f || form === 0x5e) {
      const name = { 0x4e: 'rec', 0x50: 'sub', 0x4f: 'sub final', 0x5f: 'struct', 0x5e: 'array' }[form];
      throw refuse('E_WASM_GC', `The type section declares a GC type form (${name}).`, { feature: 'gc' });
    }
    if (form !== 0x60) r.invalid(`unknown type form 0x${form.toString(16)}`);
    info.typeOffsets.push(r.pos);
    vec(r, MAX.functionParams, 'function parameters', () => readValueType(r));
    vec(r, MAX.functionResults, 'function results', () => readValueType(r));
  });
}

function readImports(r: WasmReader, info: WasmModuleInfo): void {
  info.importCount = vec(r, MAX.imports, 'imports', () => {
    const [moduleStart, moduleLength] = r.nameSpan();
    const [nameStart, nameLength] = r.nameSpan();
    const kind = r.byte();
    // Strings only for the imports a message shows: a module may list 100,000 of them.
    const text = (start: number, length: number) => nameText(r.bytes, start, length);
    const module = () => text(moduleStart, moduleLength);
    const name = () => text(nameStart, nameLength);
    if (info.imports.length < KEPT_IMPORTS) info.imports.push({ module: module(), name: name(), kind });
    // The rest of the descriptor is irrelevant: any import is refused once the walk is done, but keep walking
    // so a later, more specific problem is not hidden behind a parse error.
    switch (kind) {
      case 0:
        r.u32();
        break;
      case 1:
        readTable(r);
        break;
      case 2:
        readLimits(r, 'memory');
        break;
      case 3:
        readValueType(r);
        r.byte();
        break;
      case 4:
        throw refuse(
          'E_WASM_EXCEPTIONS',
          `The module imports the exception tag ${quoteUntrusted(`${module()}.${name()}`)}.`,
          { feature: 'exceptions' },
        );
      default:
        r.invalid(`unknown import kind ${kind}`);
    }
  });
}

function readTable(r: WasmReader): Limits {
  if (r.peek() === 0x40)
    throw refuse('E_WASM_GC', 'A table declares an initialiser expression (typed function references).', {
      feature: 'gc',
    });
  readValueType(r);
  return readLimits(r, 'table');
}

function readLimits(r: WasmReader, what: 'memory' | 'table'): Limits {
  const flags = r.byte();
  if (flags > 0x07) {
    throw refuse(
      'E_WASM_UNSUPPORTED',
      `A ${what} uses limits flags 0x${flags.toString(16)} (for example custom page sizes).`,
      { flags },
    );
  }
  const shared = (flags & 0x02) !== 0;
  const is64 = (flags & 0x04) !== 0;
  const readSize = () => {
    if (!is64) return r.u32();
    // memory64 limits are u64; only their extent matters since memory64 is refused after the walk.
    r.skipSigned(64);
    return 0;
  };
  const min = readSize();
  const max = flags & 0x01 ? readSize() : undefined;
  if (max !== undefined && !is64 && max < min) r.invalid(`${what} maximum is below its minimum`);
  return { min, max, shared, is64 };
}

function readElement(r: WasmReader, typeCount: number): void {
  const flags = r.u32();
  if (flags > 7) r.invalid(`unknown element segment flags ${flags}`);
  const passiveOrDeclarative = (flags & 0x01) !== 0;
  const explicitTable = (flags & 0x02) !== 0;
  const usesExpressions = (flags & 0x04) !== 0;
  if (!passiveOrDeclarative) {
    if (explicitTable) r.u32();
    decodeExpression(r, typeCount);
  }
  if (passiveOrDeclarative || explicitTable) {
    if (usesExpressions) readValueType(r);
    else if (r.byte() !== 0x00) r.invalid('element kind must be funcref');
  }
  if (usesExpressions) vec(r, MAX.elementEntries, 'element segment entries', () => decodeExpression(r, typeCount));
  else vec(r, MAX.elementEntries, 'element segment entries', () => r.u32());
}

function readData(r: WasmReader, typeCount: number): void {
  const flags = r.u32();
  if (flags === 0) {
    decodeExpression(r, typeCount);
  } else if (flags === 2) {
    if (r.u32() !== 0) throw refuse('E_WASM_MULTI_MEMORY', 'A data segment targets a memory other than memory 0.');
    decodeExpression(r, typeCount);
  } else if (flags !== 1) {
    r.invalid(`unknown data segment flags ${flags}`);
  }
  const len = r.u32();
  r.skip(len);
}

function readCode(r: WasmReader, typeCount: number): number {
  return vec(r, MAX.functions, 'function bodies', () => {
    const size = r.u32();
    const end = r.pos + size;
    if (end > r.end) r.invalid('function body runs past the code section');
    const body = new WasmReader(r.bytes, r.pos, end);
    let locals = 0;
    vec(body, MAX.locals, 'local groups', () => {
      locals += body.u32();
      if (locals > 50_000) body.invalid('more than 50000 locals');
      readValueType(body);
    });
    decodeExpression(body, typeCount);
    if (body.pos !== end) body.invalid('function body continues after its final end');
    r.pos = end;
  });
}
