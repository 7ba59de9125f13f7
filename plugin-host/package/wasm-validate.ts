// plugin.wasm rules of harness-wasm-v1 (seed 004 "ABI 与执行限制"). Order matters for identical verdicts across
// engines: our own walk and rule checks run first, and WebAssembly.validate (whose accepted feature set differs
// between Node 20 and Chromium) runs last, only to catch type errors in a module that uses accepted features.
import { quoteUntrusted } from '../errors';
import { refuse } from './codes';
import { PACKAGE_LIMITS, WASM_LIMITS } from './limits';
import {
  exportAt,
  exportCount,
  findExport,
  funcType,
  walkModule,
  type FuncType,
  type WasmModuleInfo,
} from './wasm-module';

const I32 = 0x7f;
const I64 = 0x7e;

/** The four ABI exports and their exact signatures. */
export const REQUIRED_EXPORTS: Record<string, FuncType> = {
  harness_abi_version: { params: [], results: [I32] },
  harness_alloc: { params: [I32], results: [I32] },
  harness_free: { params: [I32, I32], results: [] },
  harness_step: { params: [I32, I32], results: [I64] },
};

export interface WasmSummary {
  /** Pages of 64 KiB. */
  memory: { min: number; max: number };
  tables: { min: number; max: number }[];
  exports: string[];
}

const TYPE_NAMES: Record<number, string> = {
  0x7f: 'i32',
  0x7e: 'i64',
  0x7d: 'f32',
  0x7c: 'f64',
  0x7b: 'v128',
  0x70: 'funcref',
  0x6f: 'externref',
};
const showType = (t: FuncType) =>
  `(${t.params.map((p) => TYPE_NAMES[p] ?? '?').join(', ')}) -> ${t.results.length === 0 ? '()' : t.results.map((p) => TYPE_NAMES[p] ?? '?').join(', ')}`;

/** Validates plugin.wasm bytes against the ABI rules; throws HarnessError with an E_WASM_* code. */
export function validateWasm(bytes: Uint8Array): WasmSummary {
  if (bytes.length > PACKAGE_LIMITS.wasmBytes) {
    throw refuse('E_PACKAGE_ENTRY_TOO_LARGE', `plugin.wasm is ${bytes.length} bytes.`, {
      entry: 'plugin.wasm',
      limit: PACKAGE_LIMITS.wasmBytes,
    });
  }
  const info = walkModule(bytes);
  checkImports(info);
  const memory = checkMemory(info);
  const tables = checkTables(info);
  checkExports(info);
  if (!WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>)) {
    throw refuse('E_WASM_INVALID', 'WebAssembly.validate refuses plugin.wasm (a type or structure error).');
  }
  const exports: string[] = [];
  for (let i = 0; i < exportCount(info); i++) exports.push(exportAt(info, i).name);
  return { memory, tables, exports };
}

function checkImports(info: WasmModuleInfo): void {
  if (info.importCount === 0) return;
  const names = info.imports.map((i) => quoteUntrusted(`${i.module}.${i.name}`, 80));
  const more = info.importCount > names.length ? ` and ${info.importCount - names.length} more` : '';
  throw refuse('E_WASM_IMPORTS', `plugin.wasm imports ${names.join(', ')}${more}.`, {
    imports: names,
    count: info.importCount,
  });
}

function checkMemory(info: WasmModuleInfo): { min: number; max: number } {
  if (info.memoryCount === 0) throw refuse('E_WASM_MEMORY_MISSING', 'plugin.wasm defines no memory.');
  if (info.memoryCount > 1) throw refuse('E_WASM_MULTI_MEMORY', `plugin.wasm defines ${info.memoryCount} memories.`);
  const m = info.memories[0]!;
  if (m.shared) throw refuse('E_WASM_MEMORY_SHARED', 'The memory is shared.');
  if (m.is64) throw refuse('E_WASM_MEMORY64', 'The memory is 64-bit (memory64).');
  if (m.max === undefined) throw refuse('E_WASM_MEMORY_NO_MAXIMUM', 'The memory declares no maximum.');
  if (m.max > WASM_LIMITS.maxMemoryPages) {
    throw refuse('E_WASM_MEMORY_TOO_LARGE', `The memory maximum is ${m.max} pages.`, {
      max: m.max,
      limit: WASM_LIMITS.maxMemoryPages,
    });
  }
  const exported = findExport(info, 'memory');
  if (exported?.kind !== 'memory' || exported.index !== 0) {
    throw refuse('E_WASM_MEMORY_NOT_EXPORTED', 'The memory is not exported as "memory".');
  }
  return { min: m.min, max: m.max };
}

function checkTables(info: WasmModuleInfo): { min: number; max: number }[] {
  if (info.tableCount > WASM_LIMITS.maxTables) {
    throw refuse('E_WASM_TABLE_TOO_LARGE', `plugin.wasm defines ${info.tableCount} tables.`, {
      limit: WASM_LIMITS.maxTables,
    });
  }
  return info.tables.map((t, i) => {
    if (t.shared || t.is64) throw refuse('E_WASM_UNSUPPORTED', `Table ${i} is shared or 64-bit.`);
    if (t.max === undefined) throw refuse('E_WASM_TABLE_NO_MAXIMUM', `Table ${i} declares no maximum.`);
    if (t.max > WASM_LIMITS.maxTableElements) {
      throw refuse('E_WASM_TABLE_TOO_LARGE', `Table ${i} declares a maximum of ${t.max} elements.`, {
        limit: WASM_LIMITS.maxTableElements,
      });
    }
    return { min: t.min, max: t.max };
  });
}

function checkExports(info: WasmModuleInfo): void {
  for (const [name, want] of Object.entries(REQUIRED_EXPORTS)) {
    const exp = findExport(info, name);
    if (!exp) throw refuse('E_WASM_EXPORT_MISSING', `plugin.wasm does not export ${name}.`, { export: name });
    if (exp.kind !== 'func') {
      throw refuse('E_WASM_EXPORT_SIGNATURE', `${name} is exported as a ${exp.kind}, not a function.`, {
        export: name,
      });
    }
    const typeIndex = info.functions.at(exp.index);
    const got = typeIndex === undefined ? undefined : funcType(info, typeIndex);
    if (!got) throw refuse('E_WASM_INVALID', `The export ${name} names function ${exp.index}, which does not exist.`);
    if (!sameType(got, want)) {
      throw refuse(
        'E_WASM_EXPORT_SIGNATURE',
        `${name} has the signature ${showType(got)}, expected ${showType(want)}.`,
        { export: name },
      );
    }
  }
}

function sameType(a: FuncType, b: FuncType): boolean {
  return (
    a.params.length === b.params.length &&
    a.results.length === b.results.length &&
    a.params.every((p, i) => p === b.params[i]) &&
    a.results.every((p, i) => p === b.results[i])
  );
}
