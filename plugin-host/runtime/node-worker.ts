// Node face of the plugin worker: a worker_threads Worker running the same driver as the browser. Node 20 cannot
// load TypeScript in a worker and the bundled CLI has no separate worker file, so the worker is started from the
// driver's own source (driver.ts is self-contained for exactly this reason). This is Node's `eval` worker option,
// not page-side eval: the browser uses a real module Worker (browser-worker.ts) under its CSP.

import { Worker } from 'node:worker_threads';
import { driverMain } from './driver';
import type { WorkerFactory, WorkerHandle } from './worker-protocol';

// Bundlers may wrap functions with a `__name` helper (esbuild keepNames); give the worker a harmless one.
const source = `'use strict';
const __name = (f) => f;
const { parentPort } = require('node:worker_threads');
(${driverMain.toString()})({
  post: (m) => parentPort.postMessage(m),
  onMessage: (h) => parentPort.on('message', h),
});`;

export interface NodeWorkerOptions {
  /** V8 heap limits for the worker's JavaScript (wasm memory is bounded by the module's declared maximum). */
  maxOldGenerationSizeMb?: number;
  /** Stack for the worker thread; wasm recursion overflows it with a RangeError (E_RUN_STACK_OVERFLOW). */
  stackSizeMb?: number;
}

export function createNodeWorker(options: NodeWorkerOptions = {}): WorkerHandle {
  const worker = new Worker(source, {
    eval: true,
    stdout: true,
    stderr: true,
    env: {},
    resourceLimits: {
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 256,
      stackSizeMb: options.stackSizeMb ?? 4,
    },
  });
  worker.unref();
  let exited = false;
  const gone = new Promise<void>((resolve) => worker.once('exit', () => ((exited = true), resolve())));
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => worker.on('message', handler),
    onError: (handler) => {
      worker.on('error', (e) => handler({ code: 'E_RUN_WORKER', message: e instanceof Error ? e.message : String(e) }));
      worker.on('exit', (code) => handler({ code: 'E_RUN_WORKER', message: `the worker exited with code ${code}` }));
    },
    terminate: async () => {
      if (!exited) await worker.terminate();
      await gone;
    },
  };
}

export const nodeWorkerFactory =
  (options: NodeWorkerOptions = {}): WorkerFactory =>
  () =>
    createNodeWorker(options);
