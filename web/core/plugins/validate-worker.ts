// Entry of the package-validation module Worker (see validate-off-thread.ts): one request, one answer. The answer is
// the validator's own result, its buffers transferred back, or its refusal as plain {code, message, data}.
// The folders' own faces, not plugin-host's index: that would bundle the plugin runtime (and its worker) in here.
import { toErrorData } from '../../../plugin-host/errors';
import { validatePackage } from '../../../plugin-host/package';
import { VALIDATE_WORKER_CODE, workerFailure, type ValidateReply, type ValidateRequest } from './validate-protocol';

// tsconfig's lib is DOM (no WebWorker): describe the two members of DedicatedWorkerGlobalScope used here.
const scope = globalThis as unknown as {
  postMessage(message: ValidateReply, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<ValidateRequest>) => void): void;
};

scope.addEventListener('message', (e) => {
  void (async () => {
    try {
      const pkg = await validatePackage(e.data.bytes);
      // wasm and license may be views of one inflated buffer: list each buffer once or postMessage throws.
      const buffers = new Set<ArrayBuffer>();
      for (const view of [pkg.wasm, pkg.license]) if (view.buffer instanceof ArrayBuffer) buffers.add(view.buffer);
      scope.postMessage({ ok: true, pkg }, [...buffers]);
    } catch (error) {
      // The validator refuses with HarnessErrors; anything else is a bug in it, reported with the same worker code.
      const data = toErrorData(error, VALIDATE_WORKER_CODE);
      if (data.code === VALIDATE_WORKER_CODE) data.message = workerFailure(data.message);
      scope.postMessage({ ok: false, error: data });
    }
  })();
});
