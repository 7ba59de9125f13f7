// Browser face of the plugin worker: one dedicated module Worker per invocation, loaded from driver-worker.ts
// (Vite bundles it; it runs under the app's CSP: worker-src 'self', script-src 'wasm-unsafe-eval').

import type { WorkerFactory, WorkerHandle } from './worker-protocol';

export function createBrowserWorker(): WorkerHandle {
  const worker = new Worker(new URL('./driver-worker.ts', import.meta.url), { type: 'module', name: 'plugin' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.addEventListener('message', (e) => handler(e.data)),
    onError: (handler) => {
      worker.addEventListener('error', (e) =>
        handler({ code: 'E_RUN_WORKER', message: e.message || 'the worker failed to load or crashed' }),
      );
      worker.addEventListener('messageerror', () =>
        handler({ code: 'E_RUN_WORKER', message: 'a worker message could not be deserialised' }),
      );
    },
    // terminate() stops the thread at once, even inside an infinite wasm loop; nothing it posts afterwards arrives.
    terminate: async () => worker.terminate(),
  };
}

export const browserWorkerFactory: WorkerFactory = createBrowserWorker;
