// One smoke request under the policy (smoke-policy.ts), reporting latency, usage, the reply and the exact error.
// The app's Test connection is `testConnection` (the default cap, stats in the app database); `i smoke` calls
// runSmoke with its flags and a file store. Once called it never throws: failures are the report's error.
import { toErrorData, type ErrorData } from '../contracts';
import { createCacheModule, type StatsStore } from '../modules';
import type { FinishReason, ProviderAdapter, Route, TransportHooks, Usage } from '../providers';
import { isModelFailure, streamModel, type TransportPorts } from '../transport';
import { checkImage } from '../contracts';
import {
  SMOKE_CACHE_CONFIG,
  smokeOutputCap,
  smokeRequestInput,
  smokeToolCallRefusal,
  type SmokeVariant,
} from './smoke-policy';

export interface ConnectionTarget {
  protocol: string;
  base_url: string;
  model: string;
  api_key_env?: string | null;
  use_max_tokens?: boolean;
  extra_body?: Record<string, unknown>;
  route?: Route;
  /** A custom provider's adapter (the bridge's provider worker); defaults to the built-in one of `protocol`. */
  adapter?: ProviderAdapter;
}

export interface ConnectionReport {
  ok: boolean;
  /** Milliseconds from sending to the complete answer (or the failure). */
  latencyMs: number;
  /** Milliseconds to the first streamed event, when one arrived. */
  firstEventMs?: number;
  /** The output cap the request carried. */
  outputCap: number;
  text?: string;
  /** Characters of reasoning the model returned (thinking models), when any. */
  reasoningChars?: number;
  /** Why the answer ended ('length': cut at the cap — connected, but a thinking model needs the thinking variant). */
  finishReason?: FinishReason;
  usage?: Usage;
  error?: ErrorData;
}

export interface SmokeOptions extends TransportPorts {
  variant?: SmokeVariant;
  /** The vision variant's image, a base64 data URL (PNG, JPEG, GIF or WebP; checked like a tool's image). */
  image?: string;
  /** An explicit cap (1..1024); checked by smokeOutputCap. */
  outputCap?: number | null;
  /** Where the observing cache module records; absent: nothing is recorded. */
  stats?: StatsStore;
  signal?: AbortSignal;
}

/** The cache module in observe mode as the transport's hooks: it records, and adds no field to the body. */
function observeHooks(store: StatsStore, signal: AbortSignal): TransportHooks {
  const cache = createCacheModule({ config: SMOKE_CACHE_CONFIG, store, name: 'smoke-cache' });
  const ctx = { signal };
  return {
    async beforeRequest(data) {
      const out = (await cache.handle('before_request', data, ctx)) as typeof data;
      return { url: out.url, body: out.body, request_meta: out.request_meta };
    },
    async requestRetry(data) {
      await cache.handle('request_retry', data, ctx);
    },
    async afterResponse(data) {
      const out = (await cache.handle('after_response', data, ctx)) as typeof data;
      return { response: out.response };
    },
  };
}

export async function runSmoke(target: ConnectionTarget, options: SmokeOptions = {}): Promise<ConnectionReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let outputCap: number;
  try {
    outputCap = smokeOutputCap(options.outputCap, options.variant);
  } catch (error) {
    return { ok: false, latencyMs: 0, outputCap: 0, error: toErrorData(error, 'E_SMOKE_OUTPUT_CAP') };
  }
  const imageProblem =
    options.image === undefined ? null : checkImage({ type: 'image_url', image_url: { url: options.image } });
  if (imageProblem)
    return {
      ok: false,
      latencyMs: 0,
      outputCap,
      error: {
        code: 'E_SMOKE_IMAGE',
        message: `The smoke test's image was refused: ${imageProblem}. Use a PNG, JPEG, GIF or WebP file of at most 8 MiB.`,
      },
    };
  let firstEventMs: number | undefined;
  const { variant: _variant, outputCap: _cap, image, stats, signal, ...ports } = options;
  const stream = streamModel({
    ...ports,
    input: smokeRequestInput(target, outputCap, image),
    apiKeyName: target.api_key_env ?? null,
    route: target.route ?? 'direct',
    ...(target.adapter ? { adapter: target.adapter } : {}),
    ...(stats ? { hooks: observeHooks(stats, signal ?? new AbortController().signal) } : {}),
    retry: { maxRetries: 0 },
    ...(signal ? { signal } : {}),
  });
  for await (const ev of stream) {
    if (firstEventMs === undefined && ev.type !== 'start' && ev.type !== 'retry') firstEventMs = now() - started;
  }
  const outcome = await stream.result();
  const latencyMs = now() - started;
  const timing = { latencyMs, outputCap, ...(firstEventMs !== undefined ? { firstEventMs } : {}) };
  if (isModelFailure(outcome)) return { ok: false, ...timing, error: outcome.error };
  const choice = outcome.parsed.response.choices[0]!;
  const usage = outcome.parsed.response.usage;
  const reasoning = choice.message.reasoning_content?.length ?? 0;
  const base = {
    ...timing,
    text: choice.message.content ?? '',
    finishReason: choice.finish_reason,
    ...(reasoning > 0 ? { reasoningChars: reasoning } : {}),
    ...(usage ? { usage } : {}),
  };
  const refusal = smokeToolCallRefusal(choice.message);
  return refusal ? { ok: false, ...base, error: refusal } : { ok: true, ...base };
}

/** The app's Test connection: the smoke policy with its default cap. */
export function testConnection(target: ConnectionTarget, options: SmokeOptions = {}): Promise<ConnectionReport> {
  return runSmoke(target, options);
}
