// How much memory a GGUF needs once loaded, against what this device can give a tab, checked before loading.
// llama.cpp in wllama keeps the weights, the KV cache and its compute buffers in one WebAssembly memory (64-bit
// addresses, at most 4 GiB in wllama 3.13's build), so the estimate is: file size (the weights are read into the
// heap) + KV cache (K and V, f16, per layer × context × kv width) + compute buffers (a share of the weights, at
// least 64 MiB) + the runtime itself (~32 MiB). `navigator.deviceMemory` (GiB, rounded down, capped at 8 by
// browsers) is what the device reports; a tab gets at most about half of it.
import { HarnessError } from '../contracts';
import type { GgufHeader } from './gguf';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** Context window when the config gives none and the GGUF has no context_length (documented in CONTEXT.md). */
export const FALLBACK_CONTEXT = 4096;
/**
 * The context window loaded when the config names none: the GGUF's trained context, at most FALLBACK_CONTEXT (a
 * longer one would cost KV-cache memory most small-model turns never use). The turn's budget counts this window.
 */
export const defaultContextWindow = (header: Pick<GgufHeader, 'contextLength'>) =>
  Math.min(header.contextLength ?? FALLBACK_CONTEXT, FALLBACK_CONTEXT);
/** wllama 3.13's WebAssembly memory maximum: 65536 pages of 64 KiB. */
export const WASM_MEMORY_LIMIT = 4 * GiB;

export interface MemoryEstimate {
  weights: number;
  kvCache: number;
  compute: number;
  runtime: number;
  total: number;
}

export function estimateMemory(header: GgufHeader, fileSize: number, nCtx: number): MemoryEstimate {
  const layers = header.blockCount ?? 32;
  const embd = header.embeddingLength ?? 4096;
  const heads = header.headCount ?? 32;
  const kvHeads = header.headCountKv ?? heads;
  const kvWidth = Math.round((embd / Math.max(1, heads)) * kvHeads);
  const kvCache = 2 * layers * nCtx * kvWidth * 2;
  const compute = Math.max(64 * MiB, Math.round(fileSize * 0.1));
  const runtime = 32 * MiB;
  return { weights: fileSize, kvCache, compute, runtime, total: fileSize + kvCache + compute + runtime };
}

/** The bytes a tab may use: the WebAssembly limit, or half the reported device memory when that is lower. */
export function memoryAvailable(deviceMemoryGiB: number | undefined): number {
  return deviceMemoryGiB && deviceMemoryGiB > 0
    ? Math.min(WASM_MEMORY_LIMIT, (deviceMemoryGiB * GiB) / 2)
    : WASM_MEMORY_LIMIT;
}

export const formatBytes = (n: number) =>
  n >= GiB ? `${(n / GiB).toFixed(1)} GiB` : `${Math.max(1, Math.round(n / MiB))} MiB`;

/** Refuses E_BROWSER_MODEL_TOO_LARGE when the estimate does not fit; returns it otherwise. */
export function checkFits(estimate: MemoryEstimate, available: number, nCtx: number): MemoryEstimate {
  if (estimate.total > available) {
    throw new HarnessError(
      'E_BROWSER_MODEL_TOO_LARGE',
      `This model needs about ${formatBytes(estimate.total)} (weights ${formatBytes(estimate.weights)}, context of ${nCtx} tokens ${formatBytes(estimate.kvCache)}) but this tab can use about ${formatBytes(available)}. Pick a smaller or more quantised model (e.g. Q4_K_M of a 0.5–1.5B model), or a smaller context window.`,
      { needed: estimate.total, available, n_ctx: nCtx },
    );
  }
  return estimate;
}
