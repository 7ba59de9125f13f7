// Section walk of plugin.wasm. Produces the facts the ABI rules need (types, function types, imports, memories,
// tables, exports) and refuses features outside the accepted set while walking, so the verdict is identical in
// Node 20 and Chromium whatever their engines accept.
import { refuse } from './codes';
import { decodeExpression, readValueType } from './wasm-code';
import { WasmReader } from './wasm-reader';

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

export interface WasmExport {
  name: string;
  kind: 'func' | 'table' | 'memory' | 'global' | 'tag';
  index: number;
}

export interface WasmModuleInfo {
  types: FuncType[];
  imports: { module: string; name: string; kind: number }[];
  /** Type index of every defined function (no function imports are allowed, so index = function index). */
  functions: number[];
  tables: Limits[];
  memories: Limits[];
  exports: WasmExport[];
}

const EXPORT_KINDS = ['func', 'table', 'memory', 'global', 'tag'] as const;

// Known non-custom sections in their required order (data count 12 sits between import-related and code).
const SECTION_ORDER: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13 };

export function walkModule(bytes: Uint8Array): WasmModuleInfo {
  const r = new WasmReader(bytes, 0, bytes.length);
  if (bytes.length < 8 || r.byte() !== 0x00 || r.byte() !== 0x61 || r.byte() !== 0x73 || r.byte() !== 0x6d) {
    throw refuse('E_WASM_INVALID', 'plugin.wasm does not start with the WebAssembly magic bytes.');
  }
  const version = bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24);
  if (version !== 1) throw refuse('E_WASM_INVALID', `plugin.wasm has binary version ${version >>> 0}, not a core module version 1 (components are refused).`);
  r.pos = 8;

  const info: WasmModuleInfo = { types: [], imports: [], functions: [], tables: [], memories: [], exports: [] };
  let lastOrder = 0;
  let codeCount: number | undefined;
  while (!r.done) {
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    if (start + size > bytes.length) r.invalid(`section ${id} runs past the end of the module`);
    const s = new WasmReader(bytes, start, start + size);
    if (id !== 0) {
      const order = SECTION_ORDER[id];
      if (order === undefined) throw refuse('E_WASM_UNSUPPORTED', `The module has an unknown section with id ${id}.`, { section: id });
      if (order <= lastOrder) s.invalid(`section ${id} is out of order or repeated`);
      lastOrder = order;
    }
    switch (id) {
      case 0:
        s.name(); // custom section: name checked, payload ignored
        s.pos = s.end;
        break;
      case 1:
        readTypes(s, info);
        break;
      case 2:
        readImports(s, info);
        break;
      case 3:
        vec(s, () => info.functions.push(s.u32()));
        break;
      case 4:
        vec(s, () => info.tables.push(readTable(s)));
        break;
      case 5:
        vec(s, () => info.memories.push(readLimits(s, 'memory')));
        break;
      case 6:
        vec(s, () => {
          readValueType(s);
          const mut = s.byte();
          if (mut > 1) s.invalid('global mutability must be 0 or 1');
          decodeExpression(s, info.types.length);
        });
        break;
      case 7:
        vec(s, () => {
          const name = s.name();
          const kind = s.byte();
          const index = s.u32();
          if (kind === 4) throw refuse('E_WASM_EXCEPTIONS', `The module exports the exception tag "${name}".`, { feature: 'exceptions' });
          const k = EXPORT_KINDS[kind];
          if (k === undefined) return s.invalid(`unknown export kind ${kind}`);
          info.exports.push({ name, kind: k, index });
        });
        break;
      case 8:
        s.u32();
        break;
      case 9:
        vec(s, () => readElement(s, info.types.length));
        break;
      case 12:
        s.u32();
        break;
      case 10:
        codeCount = readCode(s, info.types.length);
        break;
      case 11:
        vec(s, () => readData(s, info.types.length));
        break;
      case 13:
        throw refuse('E_WASM_EXCEPTIONS', 'The module has a tag section (exception handling).', { feature: 'exceptions' });
    }
    if (s.pos !== s.end) s.invalid(`section ${id} has ${s.end - s.pos} unread bytes`);
    r.pos = s.end;
  }
  if ((codeCount ?? 0) !== info.functions.length) {
    throw refuse('E_WASM_INVALID', 'The function and code sections disagree on the number of functions.');
  }
  for (const t of info.functions) if (t >= info.types.length) throw refuse('E_WASM_INVALID', `A function uses type ${t}, which does not exist.`);
  return info;
}

function vec(r: WasmReader, item: () => void): number {
  const n = r.u32();
  if (n > r.end - r.pos) r.invalid('vector longer than its section');
  for (let i = 0; i < n; i++) item();
  return n;
}

function readTypes(r: WasmReader, info: WasmModuleInfo): void {
  vec(r, () => {
    const form = r.byte();
    if (form === 0x4e || form === 0x50 || form === 0x4f || form === 0x5f || form === 0x5e) {
      const name = { 0x4e: 'rec', 0x50: 'sub', 0x4f: 'sub final', 0x5f: 'struct', 0x5e: 'array' }[form];
      throw refuse('E_WASM_GC', `The type section declares a GC type form (${name}).`, { feature: 'gc' });
    }
    if (form !== 0x60) r.invalid(`unknown type form 0x${form.toString(16)}`);
    const params: number[] = [];
    const results: number[] = [];
    vec(r, () => params.push(readValueType(r)));
    vec(r, () => results.push(readValueType(r)));
    info.types.push({ params, results });
  });
}

function readImports(r: WasmReader, info: WasmModuleInfo): void {
  vec(r, () => {
    const module = r.name();
    const name = r.name();
    const kind = r.byte();
    info.imports.push({ module, name, kind });
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
        throw refuse('E_WASM_EXCEPTIONS', `The module imports the exception tag "${module}.${name}".`, { feature: 'exceptions' });
      default:
        r.invalid(`unknown import kind ${kind}`);
    }
  });
}

function readTable(r: WasmReader): Limits {
  if (r.peek() === 0x40) throw refuse('E_WASM_GC', 'A table declares an initialiser expression (typed function references).', { feature: 'gc' });
  readValueType(r);
  return readLimits(r, 'table');
}

function readLimits(r: WasmReader, what: 'memory' | 'table'): Limits {
  const flags = r.byte();
  if (flags > 0x07) {
    throw refuse('E_WASM_UNSUPPORTED', `A ${what} uses limits flags 0x${flags.toString(16)} (for example custom page sizes).`, { flags });
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
  if (usesExpressions) vec(r, () => decodeExpression(r, typeCount));
  else vec(r, () => r.u32());
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
  return vec(r, () => {
    const size = r.u32();
    const end = r.pos + size;
    if (end > r.end) r.invalid('function body runs past the code section');
    const body = new WasmReader(r.bytes, r.pos, end);
    let locals = 0;
    vec(body, () => {
      locals += body.u32();
      if (locals > 50_000) body.invalid('more than 50000 locals');
      readValueType(body);
    });
    decodeExpression(body, typeCount);
    if (body.pos !== end) body.invalid('function body continues after its final end');
    r.pos = end;
  });
}
