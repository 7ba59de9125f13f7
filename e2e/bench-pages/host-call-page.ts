// Bench page for e2e/host-call-boundary.bench.ts. The same bundle runs twice: on the page, where the plugin runtime's
// host side ran before the agent moved into a Worker, and as a dedicated Worker (the agent Worker's place), whose
// plugin Workers are then nested. Each side invokes the recorder plugin making `calls` kv.get host calls and returns
// the time per call, from the first frame its plugin Worker posts to the last (Worker start-up excluded).
import { invokePlugin, MemoryKvStore, type WorkerFactory } from '../../plugin-host/runtime';

/** The driver bundle served next to this page (esbuild does not follow Vite's `new URL(…, import.meta.url)` Workers). */
function timedWorkers(onFrame: () => void): WorkerFactory {
  return () => {
    const worker = new Worker('/driver.js', { type: 'module', name: 'plugin' });
    return {
      post: (message) => worker.postMessage(message),
      onMessage: (handler) => worker.addEventListener('message', (e) => (onFrame(), handler(e.data))),
      onError: (handler) =>
        worker.addEventListener('error', (e) => handler({ code: 'E_RUN_WORKER', message: e.message })),
      terminate: async () => worker.terminate(),
    };
  };
}

async function perCall(wasm: Uint8Array, calls: number): Promise<number> {
  let first = 0;
  let last = 0;
  const createWorker = timedWorkers(() => {
    last = performance.now();
    first ||= last;
  });
  const plugin = {
    id: 'bench.many',
    version: '1.0.0',
    sha256: 'many',
    permissions: { workspace: 'none' as const, storage: true },
    tools: [{ name: 'run' }],
    wasm,
  };
  const result = await invokePlugin({
    plugin,
    tool: 'run',
    arguments: {},
    workspaceId: 'bench',
    fs: null,
    kv: new MemoryKvStore(),
    approval: { mode: 'auto' },
    createWorker,
  });
  if (result.status !== 'done')
    throw new Error(`the bench invocation ended ${result.status}: ${JSON.stringify(result)}`);
  return (last - first) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

if (typeof document === 'undefined') {
  // The agent Worker's side.
  const scope = globalThis as unknown as {
    postMessage(m: unknown): void;
    addEventListener(t: 'message', l: (e: MessageEvent<{ wasm: Uint8Array; calls: number }>) => void): void;
  };
  scope.addEventListener(
    'message',
    (e) =>
      void perCall(e.data.wasm, e.data.calls).then(
        (ms) => scope.postMessage({ ms }),
        (error: unknown) => scope.postMessage({ error: String(error) }),
      ),
  );
} else {
  const agentSide = new Worker('/page.js', { type: 'module', name: 'agent' });
  const inWorker = (wasm: Uint8Array, calls: number) =>
    new Promise<number>((resolve, reject) => {
      agentSide.addEventListener(
        'message',
        (e: MessageEvent<{ ms?: number; error?: string }>) =>
          e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.ms!),
        { once: true },
      );
      agentSide.postMessage({ wasm, calls });
    });
  (globalThis as unknown as { hostCallBench: unknown }).hostCallBench = {
    /** Interleaved pairs, so that noise from other processes hits both sides alike; the first two are warm-up. */
    async compare(calls: number, runs: number) {
      const wasm = new Uint8Array(await (await fetch('/plugin.wasm')).arrayBuffer());
      const pairs: Array<[number, number]> = [];
      for (let i = 0; i < runs + 2; i++) pairs.push([await perCall(wasm, calls), await inWorker(wasm, calls)]);
      const measured = pairs.slice(2);
      return { pageMs: median(measured.map((p) => p[0])), workerMs: median(measured.map((p) => p[1])) };
    },
  };
}
