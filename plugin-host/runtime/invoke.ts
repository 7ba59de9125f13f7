// Page side of one plugin invocation: one fresh worker, one budget, host calls mediated frame by frame, and a
// result that never throws. On timeout, cancel or violation the worker is terminated and its later messages are
// ignored; nothing is replayed. `sideEffects` says whether a write or KV change may have happened, so a caller
// knows whether to inspect the files before retrying by hand.

import { HarnessError, quoteUntrusted, toErrorData, type ErrorData } from '../errors';
import type { WorkspaceFs } from '../fs';
import { boundedError } from './bounded-error';
import { Budget } from './budget';
import { AbortCode, RefusalCode } from './codes';
import { resumeFrame, startFrame, type HostResponse } from './frames';
import { performHostCall, type HostContext, type PluginPermissions, type WriteApproval } from './host-ops';
import type { KvStore } from './kv-store';
import { DEFAULT_TIMEOUT_MS, MAX_FRAME_BYTES } from './limits';
import { FrameMediator } from './mediator';
import type { ModuleCache } from './module-cache';
import { isFromWorker, type WorkerFactory, type WorkerHandle } from './worker-protocol';

/** The parts of a validated package the runtime needs. */
export interface RuntimePlugin {
  id: string;
  version: string;
  /** SHA-256 (hex) of `wasm`, verified when the package was validated. */
  sha256: string;
  permissions: PluginPermissions;
  tools: readonly { name: string }[];
  wasm: Uint8Array;
}

export interface InvokeOptions {
  plugin: RuntimePlugin;
  /** Local tool name from the manifest (not the public name). */
  tool: string;
  arguments: unknown;
  workspaceId: string;
  fs: WorkspaceFs | null;
  kv: KvStore;
  approval: WriteApproval;
  createWorker: WorkerFactory;
  /** When given, the Module is compiled (or found) on the page side and posted to the worker. */
  moduleCache?: ModuleCache;
  timeoutMs?: number;
  signal?: AbortSignal;
  invocationId?: string;
}

interface ResultBase {
  invocationId: string;
  /** True when a write or KV change started: inspect the workspace before retrying by hand. */
  sideEffects: boolean;
  hostCalls: number;
  durationMs: number;
}

export type InvokeResult =
  | (ResultBase & { status: 'done'; output: string })
  /** The plugin answered `{"type":"error"}`: a normal outcome, not a violation. */
  | (ResultBase & { status: 'error'; error: string })
  /** Timeout, cancel, trap or protocol violation: `error.code` is an E_RUN_* code. */
  | (ResultBase & { status: 'aborted'; error: ErrorData });

/**
 * The resume frame for a response, or a refusal when the answer itself would exceed the frame limit (an 8 MiB file
 * of control characters is ~48 MiB once JSON-escaped): the host's answer being too big is not the plugin's fault.
 */
function fitFrame(response: HostResponse): string {
  const frame = resumeFrame(response);
  if (frame.length * 3 <= MAX_FRAME_BYTES) return frame;
  const bytes = new TextEncoder().encode(frame).length;
  if (bytes <= MAX_FRAME_BYTES) return frame;
  return resumeFrame({
    id: response.id,
    ok: false,
    error: `${RefusalCode.TOO_LARGE}: The answer would be a ${bytes}-byte frame once JSON-encoded, over the ${MAX_FRAME_BYTES}-byte limit. Read a smaller file.`,
  });
}

let counter = 0;
const newInvocationId = () =>
  `inv-${Date.now().toString(36)}-${(++counter).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function invokePlugin(options: InvokeOptions): Promise<InvokeResult> {
  const { plugin, createWorker } = options;
  const invocationId = options.invocationId ?? newInvocationId();
  const startedAt = performance.now();
  const mediator = new FrameMediator();
  const inner = new AbortController();
  let sideEffects = false;
  let pending = false;
  let worker: WorkerHandle | null = null;
  let settled = false;
  let resolveResult!: (r: InvokeResult) => void;
  const result = new Promise<InvokeResult>((r) => (resolveResult = r));

  const base = (): ResultBase => ({
    invocationId,
    sideEffects,
    hostCalls: mediator.hostCalls,
    durationMs: performance.now() - startedAt,
  });

  function finish(
    outcome:
      { status: 'done'; output: string } | { status: 'error'; error: string } | { status: 'aborted'; error: ErrorData },
  ): void {
    if (settled) return;
    settled = true;
    budget.stop();
    inner.abort();
    options.signal?.removeEventListener('abort', onCancel);
    const w = worker;
    worker = null;
    const r = { ...base(), ...outcome } as InvokeResult;
    if (w)
      void w.terminate().then(
        () => resolveResult(r),
        () => resolveResult(r),
      );
    else resolveResult(r);
  }
  // Every abort leaves through here: boundedError is the net that keeps it small even if a message or data built
  // somewhere above ever embeds untrusted text whole (each site already quotes through quoteUntrusted).
  const abort = (code: string, message: string, data?: Record<string, unknown>) =>
    finish({ status: 'aborted', error: boundedError(code, message, data) });

  const budget = new Budget(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, () =>
    abort(
      AbortCode.TIMEOUT,
      `The plugin ran past its ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms budget and was stopped. Nothing was retried; check the workspace before running it again.`,
    ),
  );
  const onCancel = () =>
    abort(
      AbortCode.CANCELLED,
      'The invocation was cancelled and the plugin stopped. Nothing was retried; check the workspace before running it again.',
    );

  const hostContext: HostContext = {
    pluginId: plugin.id,
    workspaceId: options.workspaceId,
    permissions: plugin.permissions,
    fs: options.fs,
    kv: options.kv,
    approval: options.approval,
    signal: inner.signal,
    pauseBudget: () => budget.pause(),
    onSideEffect: () => {
      sideEffects = true;
    },
  };

  async function onFrame(text: string): Promise<void> {
    // The driver steps only after a resume, so a frame while a host call is pending means a broken worker.
    if (pending)
      return abort(AbortCode.BAD_FRAME, 'The plugin worker sent a frame while a host call was still being answered.');
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      // JSON.parse refuses a leading U+FEFF, and the driver's decoder keeps it (ignoreBOM): a BOM-prefixed frame ends here.
      return abort(
        AbortCode.BAD_JSON,
        `The plugin returned a frame that is not valid JSON (it starts ${quoteUntrusted(text, 40)}). Frames are one JSON object, without a byte order mark.`,
        {
          head: quoteUntrusted(text, 80),
          characters: text.length,
        },
      );
    }
    let judged;
    try {
      judged = mediator.accept(frame);
    } catch (e) {
      const { code, message, data } = toErrorData(e, AbortCode.BAD_FRAME);
      abort(code, message, data);
      return;
    }
    if (judged.type === 'done') return finish({ status: 'done', output: judged.output });
    if (judged.type === 'error') return finish({ status: 'error', error: judged.error });
    pending = true;
    const response = await performHostCall(judged.request, hostContext);
    pending = false;
    if (settled || !worker) return;
    worker.post({ type: 'resume', invocationId, frame: fitFrame(response) });
  }

  async function start(): Promise<void> {
    if (!plugin.tools.some((t) => t.name === options.tool)) {
      const known = plugin.tools.map((t) => t.name).join(', ');
      return abort(
        AbortCode.UNKNOWN_TOOL,
        `Plugin ${plugin.id} has no tool ${quoteUntrusted(options.tool, 80)}. Its tools: ${known}.`,
      );
    }
    let start: string;
    try {
      start = startFrame({
        id: invocationId,
        event: 'tool',
        workspace_id: options.workspaceId,
        data: { name: options.tool, arguments: options.arguments },
      });
    } catch {
      return abort(AbortCode.BAD_ARGUMENTS, 'The tool arguments are not serialisable as JSON.');
    }
    if (options.signal?.aborted) return onCancel();
    options.signal?.addEventListener('abort', onCancel, { once: true });
    budget.start();
    let module: WebAssembly.Module | undefined;
    if (options.moduleCache) {
      try {
        module = await options.moduleCache.get(plugin.sha256, plugin.wasm);
      } catch (e) {
        return abort(
          AbortCode.COMPILE,
          `The plugin's WebAssembly did not compile. Re-pack it with hplugin. Engine message: ${quoteUntrusted(e instanceof Error ? e.message : String(e))}.`,
        );
      }
      if (settled) return;
    }
    try {
      worker = createWorker();
    } catch (e) {
      return abort(AbortCode.WORKER, `Could not start a plugin worker: ${e instanceof Error ? e.message : String(e)}.`);
    }
    const w = worker;
    w.onMessage((message) => {
      // Anything from a terminated worker, another invocation or of an unknown shape is ignored.
      if (settled || worker !== w || !isFromWorker(message, invocationId)) return;
      if (message.type === 'abort') {
        // Only the driver's own E_RUN_* codes may come from the worker; anything else is reported as a worker fault.
        const code = /^E_RUN_[A-Z0-9_]{1,40}$/.test(message.error.code) ? message.error.code : AbortCode.WORKER;
        const detail = message.detail === undefined ? '' : ` ${quoteUntrusted(message.detail)}.`;
        return abort(code, `${message.error.message}${detail}`, message.error.data);
      }
      void onFrame(message.text).catch((e: unknown) => {
        const data = toErrorData(e, AbortCode.HOST);
        abort(AbortCode.HOST, `The host failed while answering the plugin: ${quoteUntrusted(data.message)}.`);
      });
    });
    w.onError((error) => {
      if (settled || worker !== w) return;
      abort(AbortCode.WORKER, `The plugin worker stopped unexpectedly: ${quoteUntrusted(error.message)}.`, {
        cause: error.code,
      });
    });
    w.post(
      module
        ? { type: 'init', invocationId, module, start, limits: { maxFrameBytes: MAX_FRAME_BYTES } }
        : { type: 'init', invocationId, bytes: plugin.wasm, start, limits: { maxFrameBytes: MAX_FRAME_BYTES } },
    );
  }

  void start().catch((e: unknown) =>
    abort(
      AbortCode.HOST,
      `The host failed starting the plugin: ${quoteUntrusted(HarnessError.isInstance(e) ? e.message : String(e))}.`,
    ),
  );
  return result;
}
