// web/core/browser-model's lazy face (reached only with import()).
// The in-browser model as the app wires it (loaded lazily: wllama and its 10 MB wasm are fetched only when a
// config says protocol "browser"): the loop's stream function over the model store, and Test connection.
import wasmPath from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { toErrorData } from '../contracts';
import { openStoredModel } from './model-store';
import { browserStream, loadChecked, sharedEngine, type BrowserStreamOptions } from './stream';

/** wllama's Worker is a blob: URL, so the wasm needs an absolute address (the app's own asset). */
export const wllamaWasmUrl = () => new URL(wasmPath, self.location.href).href;

const deviceMemory = () => (navigator as Navigator & { deviceMemory?: number }).deviceMemory;

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

/**
 * WebGPU where the browser has an adapter (wllama 3.13 offloads the layers there); asked once per thread. Headless
 * Chromium and many laptops have none, and then the model runs on the CPU as before.
 */
let adapter: Promise<boolean> | undefined;
export function webGpuAvailable(nav?: { gpu?: GpuLike }): Promise<boolean> {
  if (nav) return probe(nav);
  return (adapter ??= probe((globalThis as { navigator?: { gpu?: GpuLike } }).navigator ?? {}));
}
async function probe(nav: { gpu?: GpuLike }): Promise<boolean> {
  if (!nav.gpu) return false;
  try {
    return (await nav.gpu.requestAdapter()) != null;
  } catch {
    return false;
  }
}

export interface BrowserModelConfig {
  model: string;
  contextWindow: number | null;
}

export function appBrowserStream(c: BrowserModelConfig) {
  const o: BrowserStreamOptions = {
    model: c.model,
    contextWindow: c.contextWindow,
    open: (name) => openStoredModel(name),
    wasmUrl: wllamaWasmUrl(),
    gpu: () => webGpuAvailable(),
  };
  const dm = deviceMemory();
  return browserStream(dm ? { ...o, deviceMemory: dm } : o);
}

/** Test connection for the browser model: the checks, the load, and eight tokens. */
export async function testBrowserModel(c: BrowserModelConfig, signal?: AbortSignal) {
  const started = performance.now();
  try {
    const dm = deviceMemory();
    const { loaded } = await loadChecked(
      await openStoredModel(c.model),
      {
        contextWindow: c.contextWindow,
        wasmUrl: wllamaWasmUrl(),
        gpu: () => webGpuAvailable(),
        ...(dm ? { deviceMemory: dm } : {}),
      },
      sharedEngine(),
    );
    const g = await sharedEngine().generate({
      messages: [{ role: 'user', content: 'Say hello.' }],
      maxTokens: 8,
      signal: signal ?? new AbortController().signal,
      onText: () => undefined,
    });
    return {
      ok: true,
      latencyMs: performance.now() - started,
      firstEventMs: g.firstTokenMs,
      outputCap: 8,
      text: g.text,
      finishReason: g.finish,
      usage: { input_tokens: g.promptTokens, output_tokens: g.outputTokens },
      nCtx: loaded.nCtx,
    };
  } catch (error) {
    return {
      ok: false,
      latencyMs: performance.now() - started,
      outputCap: 8,
      error: toErrorData(error, 'E_BROWSER_MODEL'),
    };
  }
}
