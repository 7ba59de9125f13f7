// Importing a large package never freezes the page: validation runs in a Worker, and the page's main thread has
// no long task (> 50 ms, the browser's own threshold) while it runs. The control case validates the same package
// on the main thread and must see one, so the observer is known to work here.
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex, validatePackage, writeZip } from '../../../plugin-host';
import { abiModule } from '../../../plugin-host/fixtures/packages/wasm-bytes';
import { validateOffThread } from './validate-off-thread';

const MiB = 1024 * 1024;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n !== 0);
  return out;
};

function concat(parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A valid module of almost 8 MiB (the package limit): a 6 MiB function body the walker decodes instruction by
 *  instruction, and 1.5 MiB of incompressible custom-section bytes that inflate and SHA-256 must cover. Built in
 *  typed arrays only: megabytes of garbage JS arrays would be collected on the main thread during the measurement. */
function bigModule(): Uint8Array {
  const small = abiModule({ body: [0x0b] });
  // abiModule ends with its 24-byte code section (five tiny bodies); ours replaces it.
  const CODE_SECTION_BYTES = 24;
  if (small[small.length - CODE_SECTION_BYTES] !== 10) throw new Error('abiModule changed shape: update this test');
  const instructions = new Uint8Array(2 * MiB * 3 + 1);
  for (let i = 0; i + 2 < instructions.length; i += 3) instructions.set([0x41, 0x00, 0x1a], i); // i32.const 0; drop
  instructions[instructions.length - 1] = 0x0b;
  const big = concat([leb(instructions.length + 1), [0x00], instructions]);
  const tiny = [[0x41, 0x01, 0x0b], [0x20, 0x00, 0x0b], [0x0b], [0x42, 0x00, 0x0b]].flatMap((b) => [
    b.length + 1,
    0x00,
    ...b,
  ]);
  const code = concat([[0x05], tiny, big]);
  const noise = new Uint8Array(1.5 * MiB);
  for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
  const custom = concat([[0x05], new TextEncoder().encode('noise'), noise]);
  return concat([
    small.subarray(0, small.length - CODE_SECTION_BYTES),
    [10],
    leb(code.length),
    code,
    [0],
    leb(custom.length),
    custom,
  ]);
}

async function bigPackage(): Promise<Uint8Array> {
  const wasm = bigModule();
  const manifest = {
    format_version: 1,
    id: 'example.big',
    name: 'Big',
    version: '1.0.0',
    runtime: 'harness-wasm-v1',
    entry: 'plugin.wasm',
    sha256: await sha256Hex(wasm),
    permissions: { workspace: 'none', storage: false },
    tools: [{ name: 'noop', description: 'Does nothing.', parameters: { type: 'object' } }],
  };
  const enc = new TextEncoder();
  return writeZip([
    { name: 'manifest.json', data: enc.encode(JSON.stringify(manifest)) },
    { name: 'plugin.wasm', data: wasm },
    { name: 'LICENSE', data: enc.encode('MIT') },
  ]);
}

/** Durations of the main thread's long tasks while `work` runs (entries are delivered after the task, so wait a frame). */
async function longTasksDuring(work: () => Promise<unknown>): Promise<number[]> {
  const seen: number[] = [];
  const observer = new PerformanceObserver((list) =>
    seen.push(...list.getEntries().map((e) => Math.round(e.duration))),
  );
  observer.observe({ type: 'longtask', buffered: false });
  try {
    await work();
    await new Promise((r) => setTimeout(r, 100));
    return seen;
  } finally {
    observer.disconnect();
  }
}

let pkgBytes: Uint8Array | undefined;
const fresh = async () => (pkgBytes ??= await bigPackage()).slice();
afterEach(() => new Promise((r) => setTimeout(r, 50)));

describe('validating an imported package', () => {
  it('accepts a valid 8 MiB module in a Worker with no long task on the main thread, and returns the verified result', async () => {
    const bytes = await fresh();
    expect(bytes.byteLength).toBeGreaterThan(1.5 * MiB);
    let result: Awaited<ReturnType<typeof validateOffThread>> | undefined;
    const tasks = await longTasksDuring(async () => (result = await validateOffThread(bytes)));
    expect(tasks.filter((d) => d > 50)).toEqual([]);
    expect(result?.manifest.id).toBe('example.big');
    expect(result?.wasm.byteLength).toBeGreaterThan(7.5 * MiB);
    expect(result?.sha256).toBe(await sha256Hex(result!.wasm));
    // Transferred, not copied: the page holds no second copy of the package.
    expect(bytes.byteLength).toBe(0);
  });

  it('control: the same validation on the main thread is a long task, so the check above can see a freeze', async () => {
    const bytes = await fresh();
    const tasks = await longTasksDuring(() => validatePackage(bytes));
    expect(Math.max(0, ...tasks)).toBeGreaterThan(50);
  });

  it('passes the validator refusal through with its code, and a worker that never answers is stopped at the deadline', async () => {
    const bytes = await fresh();
    bytes[40]! ^= 0xff; // inside the manifest's local header/data: the CRC or the JSON no longer matches
    const refused = await validateOffThread(bytes).catch((e: { code?: string; message?: string }) => e);
    expect((refused as { code: string }).code).toMatch(/^E_(PACKAGE|MANIFEST)_/);

    let terminated = false;
    const silent = { postMessage() {}, addEventListener() {}, terminate: () => void (terminated = true) };
    const late = await validateOffThread(await fresh(), { spawn: () => silent, timeoutMs: 50 }).catch(
      (e: { code?: string }) => e,
    );
    expect((late as { code: string }).code).toBe('E_PLUGIN_VALIDATE_WORKER');
    expect(terminated).toBe(true);
  });
});
