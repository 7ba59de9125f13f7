// Entry of the browser module Worker: the shared driver bound to the worker's global scope.
import { driverMain } from './driver';

// tsconfig's lib is DOM (no WebWorker): describe the two members of DedicatedWorkerGlobalScope used here.
const scope = globalThis as unknown as {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
};

driverMain({
  post: (message) => scope.postMessage(message),
  onMessage: (handler) => scope.addEventListener('message', (e) => handler(e.data)),
});
