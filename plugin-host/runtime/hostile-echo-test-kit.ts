// The hostile corpus for bounded echoes, shared by the Node (worker_threads) and Chromium (module Worker) tests:
// frames that put megabytes of text where an error would quote it, BOM-prefixed frames, and modules whose import
// names are huge. Every case names the stable code it must end with; the tests assert that the error stays small.
import { escapeControls } from '../errors';
import type { FrameSegment } from '../fixtures/wat/wat';
import { AbortCode } from './codes';

const MiB = 1024 * 1024;
const huge = (text: string, bytes = 3 * MiB): readonly [string, number] => [text, Math.ceil(bytes / text.length)];

/** True when `text` holds a raw C0/C1 control, bidi or invisible character (a quote must show them escaped). */
export const hasRawControls = (text: string): boolean => escapeControls(text) !== text;

/** An abort (or a plugin error) must stay under this many characters of JSON, whatever the plugin sent. */
export const ECHO_BOUND = 1024;

export interface AbortCase {
  name: string;
  frame: FrameSegment[];
  code: string;
}

export const abortCases: AbortCase[] = [
  {
    name: 'a 3 MiB JSON key in a done frame',
    frame: ['{"type":"done","output":"x","', huge('k'), '":1}'],
    code: AbortCode.BAD_FRAME,
  },
  {
    name: 'a 3 MiB key beside the request of a host call',
    frame: ['{"type":"host_call","request":{"id":1,"op":"kv.get","args":{"key":"k"},"', huge('k'), '":1}}'],
    code: AbortCode.BAD_FRAME,
  },
  {
    name: 'a 3 MiB argument name',
    frame: ['{"type":"host_call","request":{"id":1,"op":"kv.get","args":{"key":"k","', huge('a'), '":1}}}'],
    code: AbortCode.BAD_ARGS,
  },
  {
    name: 'a 3 MiB operation name',
    frame: ['{"type":"host_call","request":{"id":1,"op":"', huge('o'), '","args":{"key":"k"}}}'],
    code: AbortCode.UNKNOWN_OP,
  },
  {
    name: 'a 3 MiB string as host-call id',
    frame: ['{"type":"host_call","request":{"id":"', huge('1'), '","op":"kv.get","args":{"key":"k"}}}'],
    code: AbortCode.HOST_ID,
  },
  {
    name: 'a host-call id nested a million arrays deep',
    frame: [
      '{"type":"host_call","request":{"id":',
      ['[', 1_000_000],
      '1',
      [']', 1_000_000],
      ',"op":"kv.get","args":{"key":"k"}}}',
    ],
    code: AbortCode.HOST_ID,
  },
  { name: 'a 3 MiB frame type', frame: ['{"type":"', huge('t'), '"}'], code: AbortCode.BAD_FRAME },
  {
    name: '3 MiB of terminal escapes as a JSON key',
    frame: ['{"type":"done","output":"x","', huge('\\u001b[2J\\u009b31m\\u202e'), '":1}'],
    code: AbortCode.BAD_FRAME,
  },
  { name: 'a 3 MiB frame that is not JSON', frame: [huge('{"type":')], code: AbortCode.BAD_JSON },
  {
    name: 'a 10 MiB plugin error text',
    frame: ['{"type":"error","error":"', huge('e', 10 * MiB), '"}'],
    code: AbortCode.OUTPUT_TOO_LARGE,
  },
  {
    name: 'a 10 MiB done output',
    frame: ['{"type":"done","output":"', huge('d', 10 * MiB), '"}'],
    code: AbortCode.OUTPUT_TOO_LARGE,
  },
];

/** A byte order mark is not JSON whitespace: a frame that starts with one is refused, never read as if it were absent. */
export const bomCases: AbortCase[] = [
  { name: 'a BOM before a done frame', frame: ['\uFEFF{"type":"done","output":"x"}'], code: AbortCode.BAD_JSON },
  {
    name: 'a BOM before a host call',
    frame: ['\uFEFF{"type":"host_call","request":{"id":1,"op":"kv.get","args":{"key":"k"}}}'],
    code: AbortCode.BAD_JSON,
  },
];

export interface RefusalCase {
  name: string;
  frame: FrameSegment[];
  /** A pattern where the path policy may refuse for more than one reason (length, invisible characters). */
  code: string | RegExp;
}

const call =
  (op: string, field: string, rest = '') =>
  (value: readonly [string, number]): FrameSegment[] => [
    `{"type":"host_call","request":{"id":1,"op":"${op}","args":{"${field}":"`,
    value,
    `"${rest}}}}`,
  ];

/** Host calls the host refuses (the invocation goes on): the refusal the plugin reads must stay small too. */
export const refusalCases: RefusalCase[] = [
  { name: 'fs.read of a 3 MiB path', frame: call('fs.read', 'path')(huge('a/')), code: 'E_PATH_TOO_LONG' },
  { name: 'fs.list of a 3 MiB path', frame: call('fs.list', 'path')(huge('a/')), code: 'E_PATH_TOO_LONG' },
  {
    name: 'fs.write to a 3 MiB path',
    frame: call('fs.write', 'path', ',"text":"x"')(huge('a/')),
    code: 'E_PATH_TOO_LONG',
  },
  {
    name: 'fs.read of a 3 MiB path of escapes',
    frame: call('fs.read', 'path')(huge('\\u001b\\u202e/')),
    code: /^E_PATH_[A-Z_]+$/,
  },
  // Within the path policy's 4096 bytes, so the backend itself refuses it and names it.
  {
    name: 'fs.read of a missing 3,800-byte path',
    frame: call('fs.read', 'path')(['d'.repeat(199) + '/', 19]),
    code: 'E_FS_NOT_FOUND',
  },
  {
    name: 'fs.list of a missing 3,800-byte path',
    frame: call('fs.list', 'path')(['d'.repeat(199) + '/', 19]),
    code: 'E_FS_NOT_FOUND',
  },
  { name: 'kv.get of a 3 MiB key', frame: call('kv.get', 'key')(huge('k')), code: 'E_HOST_KV_KEY' },
  { name: 'kv.put of a 3 MiB key', frame: call('kv.put', 'key', ',"value":1')(huge('k')), code: 'E_HOST_KV_KEY' },
  { name: 'kv.delete of a 3 MiB key', frame: call('kv.delete', 'key')(huge('k')), code: 'E_HOST_KV_KEY' },
];

/** The host's response to the hostile call, from the done output of the big-frame fixture. */
export function refusalOf(output: string): { id: number; ok: boolean; error?: string; result?: unknown } {
  return (JSON.parse(output) as { response: { id: number; ok: boolean; error?: string } }).response;
}

function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** A module importing `count` functions `m.<name><i>` (the runtime refuses any import, naming only the first). */
export function importingModule(name: string, count = 1): Uint8Array {
  const encoder = new TextEncoder();
  const entries: number[][] = [];
  const nameBytes = encoder.encode(name);
  for (let i = 0; i < count; i++) {
    const field = count === 1 ? nameBytes : encoder.encode(`${name}${i}`);
    entries.push([1, 0x6d, ...leb128(field.length)]);
    entries.push(Array.from(field));
    entries.push([0x00, 0x00]); // a function of type 0
  }
  const body = [leb128(count), ...entries];
  const bodyLength = body.reduce((n, part) => n + part.length, 0);
  const bytes = new Uint8Array(8 + 6 + 1 + leb128(bodyLength).length + bodyLength);
  bytes.set([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    0x01,
    0x04,
    0x01,
    0x60,
    0x00,
    0x00,
    0x02,
    ...leb128(bodyLength),
  ]);
  let at = 15 + leb128(bodyLength).length;
  for (const part of body) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

export const importCases: { name: string; wasm: () => Uint8Array }[] = [
  { name: 'a module importing a function with a 3 MiB name', wasm: () => importingModule('i'.repeat(3 * MiB)) },
  { name: 'a module with 20,000 imports', wasm: () => importingModule('import_with_a_long_name_', 20_000) },
];
