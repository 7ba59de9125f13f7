// The model call the core owns (seed 003): prepare once → before_request → same-origin check → attach the key →
// JSON POST (redirects refused, 48 MiB both ways) → retries replaying the identical bytes → SSE decode into stream
// events and reassembly into the provider's complete JSON → after_response → parse. Once called it never throws:
// every failure ends the stream with an `error` event and a ModelFailure result (STYLE.md §5).
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import { builtinAdapter, replayNotice } from '../providers';
import type {
  ModelResult,
  ParsedResponse,
  PrepareInput,
  PreparedRequest,
  ProviderAdapter,
  ProviderNotice,
  RequestMeta,
  Route,
  StreamDecoder,
  StreamEvent,
  TransportHooks,
} from '../providers';
import { EventStream } from '../contracts';
import { boundedChunks, readBoundedText, tooLarge } from './body-reader';
import {
  abortedError,
  httpError,
  isPermanentNetworkFailure,
  isRedirectFailure,
  networkError,
  redirectError,
} from './fetch-errors';
import { checkAuthSpec, checkHeaders, checkSecretValue } from './headers';
import { MAX_BODY_BYTES } from './limits';
import { checkSameOrigin } from './origin';
import { DEFAULT_RETRY, backoffDelay, isRetryableStatus, retryAfterMs, type RetryPolicy } from './retry-policy';
import { bridgeRequest, directRequest, type BridgeEndpoint, type OutgoingRequest } from './route';

/** Environment ports, injected so the browser, Node and tests share one transport. */
export interface TransportPorts {
  fetch?: typeof fetch;
  /** Reads a credential by name (credentials store in the browser, environment in the CLI). Adapters never see it. */
  getSecret?: (name: string) => Promise<string | undefined> | string | undefined;
  /** The paired bridge, for providers whose route is 'bridge'. */
  getBridge?: () => Promise<BridgeEndpoint | null> | BridgeEndpoint | null;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export interface ModelCallOptions extends TransportPorts {
  input: PrepareInput;
  /** Defaults to the built-in adapter for `input.protocol`. A custom (bridge worker) adapter is passed here. */
  adapter?: ProviderAdapter;
  /** Name of the credential (api_key_env); null/absent sends no key (local servers). */
  apiKeyName?: string | null;
  route?: Route;
  hooks?: TransportHooks;
  requestMeta?: RequestMeta;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  /** Defaults to 48 MiB; lower only in tests of the limit's mechanics. */
  maxBodyBytes?: number;
}

/** How a failed call ends: the error, whether it was a cancellation, and what had arrived before it. */
export interface ModelFailure {
  error: ErrorData;
  aborted: boolean;
  attempts: number;
  /** The partial response when a stream broke after events reached the consumer. */
  partial?: ModelResult;
}

export type ModelOutcome = ModelResult | ModelFailure;

export const isModelFailure = (o: ModelOutcome): o is ModelFailure => 'error' in o && !('parsed' in o);

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Thrown inside an attempt to say whether another attempt may follow. */
class AttemptFailure {
  constructor(
    readonly error: HarnessError,
    readonly retryable: boolean,
    readonly serverDelay: number | null = null,
  ) {}
}

function checkPrepared(p: PreparedRequest): PreparedRequest {
  if (
    !p ||
    p.version !== 1 ||
    typeof p.url !== 'string' ||
    typeof p.body !== 'object' ||
    p.body === null ||
    Array.isArray(p.body)
  ) {
    throw new HarnessError(
      'E_PROVIDER_PREPARE',
      'The provider returned a request that is not {version: 1, url, body, headers, auth}. Fix the provider.',
    );
  }
  return p;
}

/** Streams one model call. Events: start, retries, block events, usage, then exactly one done or error. */
export function streamModel(options: ModelCallOptions): EventStream<StreamEvent, ModelOutcome> {
  const out = new EventStream<StreamEvent, ModelOutcome>();
  void run(options, out);
  return out;
}

/** A non-streaming call (`stream: false`): same rules, same result; the events are start, usage and done/error. */
export function callModel(options: ModelCallOptions): EventStream<StreamEvent, ModelOutcome> {
  return streamModel({ ...options, input: { ...options.input, stream: false } });
}

async function run(o: ModelCallOptions, out: EventStream<StreamEvent, ModelOutcome>): Promise<void> {
  const input = o.input;
  const signal = o.signal;
  const limit = o.maxBodyBytes ?? MAX_BODY_BYTES;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...o.retry };
  const doFetch = o.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = o.sleep ?? defaultSleep;
  const now = o.now ?? Date.now;
  const random = o.random ?? Math.random;
  const route: Route = o.route ?? 'direct';
  let attempts = 0;
  let delivered = false;
  let sentRequest: { url: string; body: Record<string, unknown> } = { url: '', body: {} };
  let partial: (() => ModelResult | undefined) | undefined;
  const notices: ProviderNotice[] = [];

  const fail = (e: unknown) => {
    const aborted = signal?.aborted === true;
    const error = aborted ? abortedError().toJSON() : toErrorData(e, 'E_PROVIDER');
    let partialResult: ModelResult | undefined;
    try {
      partialResult = partial?.();
    } catch {
      partialResult = undefined;
    }
    out.push(partialResult ? { type: 'error', error, result: partialResult } : { type: 'error', error });
    out.end({ error, aborted, attempts, ...(partialResult ? { partial: partialResult } : {}) });
  };

  try {
    out.push({ type: 'start', protocol: input.protocol, model: input.model });
    const adapter = o.adapter ?? builtinAdapter(input.protocol);
    const notice = replayNotice(input.history, input.protocol);
    if (notice) notices.push(notice);

    // Prepare exactly once: retries replay these bytes.
    const prepared = checkPrepared(await adapter.prepare(input));
    if (Array.isArray(prepared.notices)) notices.push(...prepared.notices);
    const auth = checkAuthSpec(prepared.auth);
    let url = prepared.url;
    let body = prepared.body;
    let meta: RequestMeta = { ...(o.requestMeta ?? {}) };
    if (o.hooks?.beforeRequest) {
      const r = await o.hooks.beforeRequest({
        url,
        body,
        protocol: input.protocol,
        model: input.model,
        request_meta: meta,
      });
      url = r.url;
      body = r.body;
      meta = r.request_meta ?? meta;
    }
    const target = checkSameOrigin(url, input.base_url);
    const headers = checkHeaders(prepared.headers ?? {}, auth);
    const bodyText = JSON.stringify(body);
    const bodyBytes = new TextEncoder().encode(bodyText);
    if (bodyBytes.byteLength > limit) throw tooLarge(limit, 'request body');
    sentRequest = { url, body };

    // The key is read and attached only now, after the final URL passed the origin check.
    const wireHeaders: Record<string, string> = { ...headers, 'content-type': 'application/json' };
    if (auth && o.apiKeyName) {
      const secret = await o.getSecret?.(o.apiKeyName);
      if (secret === undefined || secret === null) {
        throw new HarnessError(
          'E_CREDENTIAL_MISSING',
          `No API key is stored under "${o.apiKeyName}". Add it in the credentials settings (or set the environment variable for the CLI).`,
          {
            name: o.apiKeyName,
          },
        );
      }
      checkSecretValue(secret);
      wireHeaders[auth.header.toLowerCase()] = auth.prefix + secret;
    }
    if (signal?.aborted) throw abortedError();
    const bridge = route === 'bridge' ? ((await o.getBridge?.()) ?? null) : null;
    const outgoing: OutgoingRequest =
      route === 'bridge'
        ? bridgeRequest(bridge, url, wireHeaders, bodyText, signal)
        : directRequest(url, wireHeaders, bodyBytes, signal);

    for (;;) {
      attempts++;
      partial = undefined;
      try {
        const { raw, streamed } = await attempt(outgoing, target.origin, route);
        if (!streamed && raw === undefined)
          throw new HarnessError(
            'E_PROVIDER_EMPTY',
            'The provider answered with an empty body. Check base_url and the model name, then try again.',
          );
        let response = raw;
        if (o.hooks?.afterResponse) response = (await o.hooks.afterResponse({ response, request_meta: meta })).response;
        const parsed = normalise(await adapter.parse(response), input);
        const result: ModelResult = {
          raw: response,
          parsed,
          request: sentRequest,
          attempts,
          ...(notices.length ? { notices } : {}),
        };
        if (!streamed && parsed.response.usage) out.push({ type: 'usage', usage: parsed.response.usage });
        out.push({ type: 'done', result });
        out.end(result);
        return;
      } catch (e) {
        if (!(e instanceof AttemptFailure)) throw e;
        if (!e.retryable || delivered || signal?.aborted || attempts > policy.maxRetries) throw e.error;
        if (e.serverDelay !== null && e.serverDelay > policy.maxRetryAfterMs) throw e.error;
        const delayMs = backoffDelay(attempts, policy, random, e.serverDelay);
        const reason = `${e.error.code}: ${e.error.message}`;
        await o.hooks?.requestRetry?.({ request_meta: meta, attempt: attempts + 1, reason });
        const status = (e.error.data as { status?: unknown } | undefined)?.status;
        out.push({
          type: 'retry',
          attempt: attempts + 1,
          maxAttempts: policy.maxRetries + 1,
          delayMs,
          retryAt: now() + delayMs,
          reason,
          code: e.error.code,
          ...(typeof status === 'number' ? { status } : {}),
        });
        await sleep(delayMs, signal);
      }
    }
  } catch (e) {
    fail(e);
  }

  async function attempt(
    req: OutgoingRequest,
    origin: string,
    via: Route,
  ): Promise<{ raw: unknown; streamed: boolean }> {
    let res: Response;
    try {
      res = await doFetch(req.url, req.init);
    } catch (e) {
      if (signal?.aborted) throw abortedError();
      if (isRedirectFailure(e)) throw new AttemptFailure(redirectError(origin), false);
      throw new AttemptFailure(networkError(e, origin, via), !isPermanentNetworkFailure(e));
    }
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      res.body?.cancel().catch(() => undefined);
      throw new AttemptFailure(redirectError(origin), false);
    }
    if (!res.ok) {
      const text = await readBoundedText(res.body, limit).catch((e: unknown) => {
        if (HarnessError.isInstance(e)) throw new AttemptFailure(e, false);
        return '';
      });
      const err = httpError(res.status, text, origin);
      throw new AttemptFailure(
        err,
        isRetryableStatus(res.status) && err.code !== 'E_CONTEXT_OVERFLOW',
        retryAfterMs(res.headers, now()),
      );
    }
    const type = res.headers.get('content-type') ?? '';
    const decoder = /text\/event-stream/i.test(type) ? adapterDecoder() : undefined;
    try {
      if (decoder) return { raw: await readStream(res, decoder), streamed: true };
      const text = await readBoundedText(res.body, limit);
      if (text.trim() === '') return { raw: undefined, streamed: false };
      try {
        return { raw: JSON.parse(text) as unknown, streamed: false };
      } catch {
        throw new HarnessError(
          'E_PROVIDER_RESPONSE',
          `The provider's answer is not JSON (${type || 'no content type'}). Check base_url points at the API, not a web page.`,
          {
            start: text.slice(0, 200),
          },
        );
      }
    } catch (e) {
      if (e instanceof AttemptFailure) throw e;
      if (signal?.aborted) throw abortedError();
      if (HarnessError.isInstance(e)) throw new AttemptFailure(e, false);
      // The connection broke while reading: retry only if nothing reached the consumer yet.
      throw new AttemptFailure(networkError(e, origin, via), !delivered);
    }
  }

  function adapterDecoder(): StreamDecoder | undefined {
    const a = o.adapter ?? builtinAdapter(input.protocol);
    return a.createStreamDecoder?.();
  }

  async function readStream(res: Response, decoder: StreamDecoder): Promise<unknown> {
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => pending.push(e) });
    const text = new TextDecoder();
    let dataEvents = 0;
    const drain = () => {
      for (const ev of pending.splice(0)) {
        if (ev.data.trim() !== '[DONE]') dataEvents++;
        let events: StreamEvent[];
        try {
          events = decoder.push({ ...(ev.event ? { event: ev.event } : {}), data: ev.data });
        } catch (e) {
          if (HarnessError.isInstance(e)) throw e;
          throw new HarnessError(
            'E_PROVIDER_STREAM',
            `The provider sent an unreadable stream event (${e instanceof Error ? e.message : String(e)}).`,
            {
              data: ev.data.slice(0, 200),
            },
          );
        }
        for (const se of events) {
          delivered = true;
          out.push(se);
        }
      }
    };
    partial = () => {
      const raw = decoder.finish();
      return { raw, parsed: normalise(syncParse(raw), input), request: sentRequest, attempts };
    };
    for await (const chunk of boundedChunks(res.body, limit)) {
      parser.feed(text.decode(chunk, { stream: true }));
      drain();
    }
    parser.feed(text.decode());
    parser.reset({ consume: true });
    drain();
    for (const se of decoder.end?.() ?? []) out.push(se);
    partial = undefined;
    if (dataEvents === 0)
      throw new HarnessError(
        'E_PROVIDER_EMPTY',
        'The provider ended the stream without sending anything. Check the model name and try again.',
      );
    return decoder.finish();
  }

  function syncParse(raw: unknown): ParsedResponse {
    const r = (o.adapter ?? builtinAdapter(input.protocol)).parse(raw);
    if (r instanceof Promise) throw new Error('async parse');
    return r;
  }
}

/** Stamps the producing protocol/model and enforces: an incomplete response never carries tool calls. */
function normalise(parsed: ParsedResponse, input: PrepareInput): ParsedResponse {
  if (!parsed || parsed.version !== 1 || !parsed.response || !Array.isArray(parsed.response.choices)) {
    throw new HarnessError(
      'E_PROVIDER_PARSE',
      'The provider parse step returned something other than {version: 1, response: {choices}}. Fix the provider.',
    );
  }
  if (parsed.response.choices.length === 0) {
    throw new HarnessError(
      'E_PROVIDER_EMPTY',
      'The provider answered without any message. Check the model name and try again.',
    );
  }
  for (const c of parsed.response.choices) {
    c.message._provider = { protocol: input.protocol, model: input.model };
    if (c.finish_reason === 'incomplete' && c.message.tool_calls) delete c.message.tool_calls;
  }
  return parsed;
}
