// The cache module (seed 000 §8) as hook handlers: `before_request` adds the provider's cache fields (never
// overwriting a field already in the body) and records the prepared request with its prediction class;
// `request_retry` counts each physical retry as another preparation; `after_response` records the usage the
// provider reported. It must run after any module that rewrites the wire body (the Responses transforms): the
// prediction describes the body as prepared here. `request_meta.cache_request` links the three events; it never
// reaches the model.
import type { HookDataMap, HookEvent, HookHandler } from '../../hooks';
import type { CacheConfig } from './cache-config';
import {
  addObserved,
  addPrepared,
  addRetry,
  type CacheRecord,
  type PredictionClass,
  type StreamState,
} from './cache-stats';
import { hashHex, prefixChain } from './prefix-chain';
import { readInputUsage } from './provider-usage';
import type { StatsStore } from './stats-store';

export interface CacheModuleOptions {
  config: CacheConfig;
  store: StatsStore;
  now?: () => number;
  newId?: () => string;
  name?: string;
}

/** The stable 64-hex-character prompt_cache_key of a namespace and model. */
export function promptCacheKey(namespace: string, model: string): string {
  return hashHex(`i-cache-v1\u0000${namespace}\u0000${model}`);
}

/** Adds the mode's provider fields without overwriting existing ones. `observe` adds nothing. */
export function withCacheFields(
  body: Record<string, unknown>,
  config: CacheConfig,
  model: string,
): Record<string, unknown> {
  if (config.mode === 'openai') {
    const out = { ...body };
    if (!('prompt_cache_key' in out)) out.prompt_cache_key = promptCacheKey(config.namespace, model);
    if (config.retention && !('prompt_cache_retention' in out)) out.prompt_cache_retention = config.retention;
    return out;
  }
  if (config.mode === 'anthropic') {
    if ('cache_control' in body) return body;
    return { ...body, cache_control: { type: 'ephemeral', ...(config.ttl ? { ttl: config.ttl } : {}) } };
  }
  return body;
}

export function classify(prev: StreamState | undefined, chain: string[], compactRequest: boolean): PredictionClass {
  if (compactRequest) return 'compact';
  if (!prev) return 'new';
  if (chain.length >= prev.items && chain[prev.items - 1] === prev.head) return 'append';
  return prev.compacting ? 'compact' : 'reset';
}

export function createCacheModule(o: CacheModuleOptions): HookHandler {
  const now = o.now ?? Date.now;
  const newId = o.newId ?? (() => globalThis.crypto.randomUUID());
  const { config } = o;

  async function beforeRequest(data: HookDataMap['before_request']): Promise<HookDataMap['before_request']> {
    const body = withCacheFields(data.body, config, data.model);
    const meta = data.request_meta;
    const streamKey = hashHex(
      `${config.namespace}\u0000${data.model}\u0000${typeof meta.session === 'string' ? meta.session : ''}`,
    ).slice(0, 32);
    const chain = prefixChain(body);
    const compactRequest = meta.compact === true;
    const id = newId();
    const at = now();
    await o.store.update((s) => {
      const prev = s.streams[streamKey];
      const cls = classify(prev, chain, compactRequest);
      const record: CacheRecord = {
        id,
        at,
        stream: streamKey,
        class: cls,
        protocol: data.protocol,
        model: data.model,
        prepared: 1,
        observed: false,
        input: null,
        cache_read: null,
        output: null,
      };
      // A summary request does not move the stream's prefix: the next request is compared with the last normal one.
      const stream: StreamState = compactRequest
        ? { ...(prev ?? { items: chain.length, head: chain[chain.length - 1]! }), last_at: at, compacting: true }
        : { items: chain.length, head: chain[chain.length - 1]!, last_at: at, compacting: false };
      addPrepared(s, record, streamKey, stream);
    });
    return { ...data, body, request_meta: { ...meta, cache_request: id, cache_protocol: data.protocol } };
  }

  return {
    name: o.name ?? 'cache',
    source: 'profile',
    events: ['before_request', 'request_retry', 'after_response'],
    async handle(event: HookEvent, data: unknown) {
      if (!config.enabled) return data;
      if (event === 'before_request') return beforeRequest(data as HookDataMap['before_request']);
      const meta = (data as { request_meta: Record<string, unknown> }).request_meta;
      const id = meta.cache_request;
      if (typeof id !== 'string') return data;
      if (event === 'request_retry') await o.store.update((s) => addRetry(s, id));
      if (event === 'after_response') {
        const usage = readInputUsage(String(meta.cache_protocol), (data as HookDataMap['after_response']).response);
        await o.store.update((s) => addObserved(s, id, usage));
      }
      return data;
    },
  };
}
