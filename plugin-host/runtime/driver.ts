// The ABI driver that runs INSIDE the plugin worker: the same function for a browser module Worker
// (driver-worker.ts) and a Node worker_threads worker (node-worker.ts).
//
// It must stay SELF-CONTAINED: no imports used at run time, no references to anything outside the function body,
// because Node starts it from `driverMain.toString()` (Node 20 cannot load TypeScript in a worker, and the bundled
// CLI has no separate worker file). Type-only imports are fine. The codes below are the literal strings of
// codes.ts `AbortCode` (a test checks they match).
//
// Contract with the plugin (seed 004): exports `memory`, `harness_abi_version() -> i32` (== 1),
// `harness_alloc(len) -> ptr`, `harness_free(ptr, len)`, `harness_step(ptr, len) -> i64` (high 32 bits: pointer,
// low 32 bits: length). The host allocates each input frame with harness_alloc and hands it to harness_step, which
// owns it from then on; the host frees each output frame with harness_free after copying it out. The driver checks
// pointers, sizes and UTF-8; the page parses the JSON and judges the frame (mediator.ts).
//
// Text that comes from the module or the engine (trap and compile messages, import names) is untrusted and may be
// megabytes long: it never goes into `message`. It travels as `detail`, and the page quotes a bounded prefix of it
// with the shared quoteUntrusted (which this self-contained function cannot import). Messages that take a detail
// end with a label such as "Engine message:"; the page appends the quote.

import type { DriverEndpoint, FromWorker } from './worker-protocol';

export function driverMain(endpoint: DriverEndpoint): void {
  type Fail = { code: string; message: string; data?: Record<string, unknown>; detail?: string };
  interface Abi {
    memory: WebAssembly.Memory;
    alloc: (len: number) => number;
    free: (ptr: number, len: number) => void;
    step: (ptr: number, len: number) => bigint;
  }

  let invocationId: string | null = null;
  let abi: Abi | null = null;
  let maxFrame = 16 * 1024 * 1024;
  let busy = false;
  let finished = false;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  const fail = (code: string, message: string, data?: Record<string, unknown>, detail?: string): Fail => {
    const f: Fail = data ? { code, message, data } : { code, message };
    if (detail !== undefined) f.detail = detail;
    return f;
  };
  const isFail = (e: unknown): e is Fail =>
    typeof e === 'object' &&
    e !== null &&
    typeof (e as Fail).code === 'string' &&
    typeof (e as Fail).message === 'string' &&
    !(e instanceof Error);

  function fromThrown(e: unknown, during: string): Fail {
    if (isFail(e)) return e;
    const text = e instanceof Error ? e.message : String(e);
    if (e instanceof RangeError && /call stack/i.test(text)) {
      return fail(
        'E_RUN_STACK_OVERFLOW',
        `The plugin overflowed its call stack during ${during} (unbounded recursion?). Fix the plugin.`,
      );
    }
    if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) {
      return fail(
        'E_RUN_TRAP',
        `The plugin trapped during ${during}. Fix the plugin; nothing was retried. Engine message:`,
        undefined,
        text,
      );
    }
    return fail(
      'E_RUN_TRAP',
      `The plugin failed during ${during}. Fix the plugin; nothing was retried. Engine message:`,
      undefined,
      text,
    );
  }

  function send(message: FromWorker): void {
    endpoint.post(message);
  }

  function abort(error: Fail): void {
    if (finished || invocationId === null) return;
    finished = true;
    // No object rest here: this source runs as written in a Node worker and must not need a bundler helper.
    const plain = error.data
      ? { code: error.code, message: error.message, data: error.data }
      : { code: error.code, message: error.message };
    send(
      error.detail === undefined
        ? { type: 'abort', invocationId, error: plain }
        : { type: 'abort', invocationId, error: plain, detail: error.detail },
    );
  }

  function checkRange(size: number, ptr: number, len: number, what: string): void {
    if (!Number.isInteger(ptr) || ptr < 0 || len < 0 || ptr + len > size) {
      throw fail(
        'E_RUN_OUT_OF_BOUNDS',
        `The plugin returned ${what} at ${ptr} with length ${len}, outside its ${size}-byte memory. Fix the plugin.`,
        { ptr, len, memoryBytes: size },
      );
    }
  }

  function bind(instance: WebAssembly.Instance): Abi {
    const x = instance.exports as Record<string, unknown>;
    const missing: string[] = [];
    if (!(x.memory instanceof WebAssembly.Memory)) missing.push('memory');
    for (const name of ['harness_abi_version', 'harness_alloc', 'harness_free', 'harness_step']) {
      if (typeof x[name] !== 'function') missing.push(name);
    }
    if (missing.length > 0) {
      throw fail(
        'E_RUN_ABI_EXPORTS',
        `The plugin does not export ${missing.join(', ')}. Build it with the harness SDK (export_plugin!).`,
        { missing },
      );
    }
    let version: unknown;
    try {
      version = (x.harness_abi_version as () => unknown)();
    } catch (e) {
      throw fromThrown(e, 'harness_abi_version');
    }
    if (version !== 1) {
      throw fail(
        'E_RUN_ABI_VERSION',
        `The plugin speaks ABI version ${String(version)}, this host speaks version 1. Rebuild it with a current SDK.`,
        { version: String(version) },
      );
    }
    return {
      memory: x.memory as WebAssembly.Memory,
      alloc: x.harness_alloc as Abi['alloc'],
      free: x.harness_free as Abi['free'],
      step: x.harness_step as Abi['step'],
    };
  }

  // Input frames are encoded into this reusable scratch buffer (no allocation per step), then copied into the
  // plugin's allocation once their exact length is known. It grows up to 1 MiB; larger frames are encoded afresh.
  let scratch = new Uint8Array(4096);
  function encodeFrame(text: string): Uint8Array {
    const worst = text.length * 3;
    if (worst > scratch.length) {
      if (worst > 1024 * 1024) return encoder.encode(text);
      scratch = new Uint8Array(Math.max(worst, scratch.length * 2));
    }
    return scratch.subarray(0, encoder.encodeInto(text, scratch).written);
  }

  /** Writes one frame into plugin memory, runs one step and returns the output frame as strict UTF-8 text. */
  function step(text: string): { text: string; bytes: number } {
    const a = abi!;
    const input = encodeFrame(text);
    if (input.length > maxFrame) {
      throw fail('E_RUN_FRAME_TOO_LARGE', `The host frame is ${input.length} bytes, over the ${maxFrame}-byte limit.`, {
        bytes: input.length,
      });
    }
    let ptr: number;
    try {
      ptr = a.alloc(input.length) >>> 0;
    } catch (e) {
      throw fromThrown(e, 'harness_alloc');
    }
    if (ptr === 0) {
      throw fail(
        'E_RUN_ALLOC',
        `The plugin could not allocate ${input.length} bytes for a frame (harness_alloc returned 0).`,
        { bytes: input.length },
      );
    }
    // The buffer is fetched again after every call into the plugin: memory.grow detaches the old one.
    let buffer = a.memory.buffer;
    checkRange(buffer.byteLength, ptr, input.length, 'an allocation');
    new Uint8Array(buffer, ptr, input.length).set(input);
    let packed: unknown;
    try {
      packed = a.step(ptr, input.length);
    } catch (e) {
      throw fromThrown(e, 'harness_step');
    }
    if (typeof packed !== 'bigint') {
      throw fail(
        'E_RUN_ABI_EXPORTS',
        'harness_step must return an i64 (pointer << 32 | length). Build the plugin with the harness SDK.',
      );
    }
    const outPtr = Number(BigInt.asUintN(32, packed >> 32n));
    const outLen = Number(BigInt.asUintN(32, packed));
    if (outLen > maxFrame) {
      throw fail(
        'E_RUN_FRAME_TOO_LARGE',
        `The plugin returned a ${outLen}-byte frame, over the ${maxFrame}-byte limit.`,
        { bytes: outLen },
      );
    }
    buffer = a.memory.buffer;
    checkRange(buffer.byteLength, outPtr, outLen, 'a frame');
    // Decoded straight from plugin memory (decoding copies) before harness_free can touch those bytes; a shared
    // memory is copied first, as TextDecoder refuses shared views.
    const view = new Uint8Array(buffer, outPtr, outLen);
    let out: string;
    try {
      // Posted as text: cloning a string is cheaper than cloning the parsed object graph; the page parses it.
      out = decoder.decode(buffer instanceof ArrayBuffer ? view : view.slice());
    } catch {
      throw fail('E_RUN_BAD_UTF8', 'The plugin returned a frame that is not valid UTF-8. Frames are UTF-8 JSON.');
    }
    try {
      a.free(outPtr, outLen);
    } catch (e) {
      throw fromThrown(e, 'harness_free');
    }
    return { text: out, bytes: outLen };
  }

  function runStep(text: string): void {
    if (finished || busy) return;
    busy = true;
    try {
      const out = step(text);
      send({ type: 'frame', invocationId: invocationId!, text: out.text, bytes: out.bytes });
    } catch (e) {
      abort(fromThrown(e, 'harness_step'));
    } finally {
      busy = false;
    }
  }

  async function init(message: Record<string, unknown>): Promise<void> {
    const limits = message.limits as { maxFrameBytes?: unknown } | undefined;
    if (limits && typeof limits.maxFrameBytes === 'number') maxFrame = limits.maxFrameBytes;
    let module: WebAssembly.Module;
    try {
      if (message.module instanceof WebAssembly.Module) module = message.module;
      else if (message.bytes instanceof Uint8Array)
        module = await WebAssembly.compile(message.bytes as Uint8Array<ArrayBuffer>);
      else throw new Error('neither a module nor bytes were sent');
    } catch (e) {
      abort(
        fail(
          'E_RUN_COMPILE',
          "The plugin's WebAssembly did not compile. Re-pack it with hplugin. Engine message:",
          undefined,
          e instanceof Error ? e.message : String(e),
        ),
      );
      return;
    }
    const imports = WebAssembly.Module.imports(module);
    if (imports.length > 0) {
      // Only the first import is named: a module may import thousands of names, each as long as the module.
      const first = imports[0]!;
      abort(
        fail(
          'E_RUN_IMPORTS',
          `The plugin imports ${imports.length} item${imports.length === 1 ? '' : 's'}; plugins may import nothing. Build for wasm32-unknown-unknown without WASI. First import:`,
          { imports: imports.length },
          `${first.module}.${first.name}`,
        ),
      );
      return;
    }
    try {
      const instance = await WebAssembly.instantiate(module, {});
      abi = bind(instance);
    } catch (e) {
      abort(fromThrown(e, 'instantiation'));
      return;
    }
    runStep(message.start as string);
  }

  endpoint.onMessage((raw) => {
    if (typeof raw !== 'object' || raw === null) return;
    const message = raw as Record<string, unknown>;
    if (
      message.type === 'init' &&
      invocationId === null &&
      typeof message.invocationId === 'string' &&
      typeof message.start === 'string'
    ) {
      invocationId = message.invocationId;
      void init(message);
      return;
    }
    // Stale or foreign messages are ignored; so is a resume before the worker is ready or after it finished.
    if (
      message.type === 'resume' &&
      message.invocationId === invocationId &&
      abi !== null &&
      typeof message.frame === 'string'
    ) {
      runStep(message.frame);
    }
  });
}
