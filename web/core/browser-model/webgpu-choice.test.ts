// WebGPU where the browser has an adapter (issue 21: "WebGPU where the version you pin supports it"), the CPU
// otherwise, and the CPU again when the adapter cannot take the model. A stand-in engine records what it was asked.
import { describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { webGpuAvailable } from './lazy';
import type { BrowserModelEngine, EngineLoadOptions } from './engine';
import { loadChecked } from './stream';

function engine(failOnGpu: boolean) {
  const asked: EngineLoadOptions[] = [];
  const e = {
    async load(_file: Blob, options: EngineLoadOptions) {
      asked.push(options);
      if (failOnGpu && options.gpu) throw new Error('device lost');
      return { nCtx: options.nCtx, nCtxTrain: 32, chatTemplate: null, threads: 1, metadata: {} };
    },
  };
  return { asked, e: e as unknown as BrowserModelEngine };
}

const model = () => new File([makeTinyGguf({ nCtx: 32 })], 'tiny.gguf');

describe('the in-browser model and WebGPU', () => {
  it('offloads to WebGPU when an adapter answers, and falls back to the CPU when loading there fails', async () => {
    const ok = engine(false);
    expect((await loadChecked(model(), { contextWindow: 32, wasmUrl: 'w', gpu: async () => true }, ok.e)).gpu).toBe(
      true,
    );
    expect(ok.asked.map((o) => o.gpu === true)).toEqual([true]);

    const failing = engine(true);
    expect(
      (await loadChecked(model(), { contextWindow: 32, wasmUrl: 'w', gpu: async () => true }, failing.e)).gpu,
    ).toBe(false);
    expect(failing.asked.map((o) => o.gpu === true)).toEqual([true, false]);

    const none = engine(false);
    expect((await loadChecked(model(), { contextWindow: 32, wasmUrl: 'w', gpu: async () => false }, none.e)).gpu).toBe(
      false,
    );
    expect(none.asked.map((o) => o.gpu === true)).toEqual([false]);
  });

  it('sees an adapter only when navigator.gpu gives one', async () => {
    expect(await webGpuAvailable({})).toBe(false);
    expect(await webGpuAvailable({ gpu: { requestAdapter: async () => null } })).toBe(false);
    expect(await webGpuAvailable({ gpu: { requestAdapter: async () => Promise.reject(new Error('blocked')) } })).toBe(
      false,
    );
    expect(await webGpuAvailable({ gpu: { requestAdapter: async () => ({ features: new Set() }) } })).toBe(true);
  });
});
