// Runs the built example modules in Node's WebAssembly with a scripted host, through the real ABI:
// harness_alloc → write frame → harness_step → read (ptr, len) → harness_free. It proves on wasm32 what the
// host-side cargo tests prove natively: the exports, the frame shapes, and that memory does not grow over many
// invocations (a leak of a few KB per invocation would add pages). Called by `node scripts/rust.mjs plugins`.
import { readFileSync } from 'node:fs';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export async function instantiate(wasmPath) {
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const imports = WebAssembly.Module.imports(module);
  if (imports.length > 0)
    throw new Error(`${wasmPath} imports ${imports.map((i) => `${i.module}.${i.name}`).join(', ')}`);
  const { exports } = await WebAssembly.instantiate(module, {});
  if (exports.harness_abi_version() !== 1) throw new Error(`${wasmPath}: harness_abi_version() is not 1`);
  return exports;
}

export function step(exports, frame) {
  const bytes = encoder.encode(JSON.stringify(frame));
  const ptr = exports.harness_alloc(bytes.length);
  if (ptr === 0) throw new Error('harness_alloc returned 0');
  // Re-read memory.buffer after every call: growing the memory detaches the old ArrayBuffer.
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  const packed = BigInt.asUintN(64, exports.harness_step(ptr, bytes.length));
  const outPtr = Number(packed >> 32n);
  const outLen = Number(packed & 0xffffffffn);
  const text = decoder.decode(new Uint8Array(exports.memory.buffer, outPtr, outLen).slice());
  exports.harness_free(outPtr, outLen);
  return JSON.parse(text);
}

/** Runs one invocation; `answer(request)` returns the host response object for each host call. */
export function invoke(exports, name, args, answer) {
  let frame = step(exports, {
    type: 'start',
    request: { id: 'smoke', event: 'tool', workspace_id: 'default', data: { name, arguments: args } },
  });
  const calls = [];
  while (frame.type === 'host_call') {
    calls.push(frame.request);
    frame = step(exports, { type: 'resume', response: answer(frame.request) });
  }
  return { frame, calls };
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const scenarios = {
  async 'word-count'(x) {
    const text = 'lorem ipsum dolor sit amet '.repeat(2000);
    let pages = 0;
    for (let i = 0; i < 300; i++) {
      // The first invocations grow the heap to its working size; after that it must stay put.
      if (i === 10) pages = x.memory.buffer.byteLength;
      const { frame, calls } = invoke(x, 'count_words', { path: 'notes.txt' }, (r) => ({
        id: r.id,
        ok: true,
        result: { text },
      }));
      expect(
        calls.length === 1 && calls[0].op === 'fs.read' && calls[0].args.path === 'notes.txt',
        'expected one fs.read',
      );
      expect(frame.type === 'done' && frame.output === '{"words":10000}', `unexpected ${JSON.stringify(frame)}`);
    }
    expect(
      x.memory.buffer.byteLength === pages,
      `memory grew from ${pages} to ${x.memory.buffer.byteLength} bytes over 290 invocations`,
    );
    const failed = invoke(x, 'count_words', { path: 'gone.txt' }, (r) => ({
      id: r.id,
      ok: false,
      error: 'E_FS_NOT_FOUND: gone',
    }));
    expect(failed.frame.type === 'error' && failed.frame.error.includes('E_FS_NOT_FOUND'), 'host error not reported');
    const bad = step(x, { type: 'resume', response: { id: 1, ok: true, result: {}, error: 'both' } });
    expect(bad.type === 'error' && bad.error.startsWith('invalid frame from the host'), 'bad frame not refused');
  },
  async notes(x) {
    const kv = new Map();
    const answer = (r) => {
      if (r.op === 'kv.get')
        return { id: r.id, ok: true, result: kv.has(r.args.key) ? { value: kv.get(r.args.key) } : {} };
      if (r.op === 'kv.put') kv.set(r.args.key, r.args.value);
      if (r.op === 'kv.delete') kv.delete(r.args.key);
      return { id: r.id, ok: true, result: {} };
    };
    invoke(x, 'add_note', { text: 'buy milk' }, answer);
    const { frame } = invoke(x, 'list_notes', {}, answer);
    expect(frame.type === 'done' && frame.output === '{"notes":["buy milk"]}', `unexpected ${JSON.stringify(frame)}`);
  },
  async 'replace-text'(x) {
    let written;
    const { frame, calls } = invoke(x, 'replace_text', { path: 'a.txt', find: 'a', replace: 'b' }, (r) => {
      if (r.op === 'fs.read') return { id: r.id, ok: true, result: { text: 'banana' } };
      written = r.args.text;
      return { id: r.id, ok: true, result: { bytes: written.length } };
    });
    expect(
      calls.map((c) => c.op).join() === 'fs.read,fs.write' && written === 'bbnbnb',
      `unexpected calls ${JSON.stringify(calls)}`,
    );
    expect(frame.type === 'done' && JSON.parse(frame.output).replacements === 3, `unexpected ${JSON.stringify(frame)}`);
  },
  async 'list-tree'(x) {
    const tree = { '': ['src', 'README.md'], src: ['src/lib.rs'] };
    const { frame, calls } = invoke(x, 'list_tree', {}, (r) => ({
      id: r.id,
      ok: true,
      result: {
        entries: (tree[r.args.path] ?? []).map((p) => ({ path: p, directory: p in tree, size: p in tree ? 0 : 3 })),
      },
    }));
    expect(calls.map((c) => c.id).join() === '1,2', `unexpected ids ${JSON.stringify(calls)}`);
    expect(
      frame.type === 'done' && frame.output.startsWith('.\n  README.md (3 bytes)\n  src/\n    lib.rs'),
      `unexpected ${JSON.stringify(frame)}`,
    );
  },
};

/** Throws with the plugin's name when a scenario fails. */
export async function smoke(name, wasmPath) {
  const exports = await instantiate(wasmPath);
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`no smoke scenario for ${name}`);
  await scenario(exports);
}
