// The provider's model list for the composer's model switcher: `GET {base}/models` for the OpenAI-compatible
// protocols (OpenAI, DeepSeek, Responses, and the OpenAI-compatible servers of Ollama, LM Studio and llama.cpp, all
// answering `{data: [{id}]}`), `GET {base}/v1/models` for Anthropic. Same rules as a model call: the URL must keep
// base_url's origin before the key is attached, redirects are refused, the bridge route goes through
// `POST /v1/proxy` — and, since a list is a convenience, a small body cap and a deadline instead of 48 MiB and retries.
import { ANTHROPIC_VERSION, isBuiltinProtocol } from '../providers';
import type { ModelConfig } from '../config';
import { HarnessError } from '../contracts';
import { boundedChunks } from './body-reader';
import { abortedError, httpError, isRedirectFailure, networkError, redirectError } from './fetch-errors';
import { checkSecretValue } from './headers';
import { checkSameOrigin } from './origin';
import type { BridgeEndpoint } from './route';

/** A list of a few hundred models is a few tens of KiB; 1 MiB leaves room for verbose metadata per model. */
export const MODEL_LIST_MAX_BYTES = 1024 * 1024;
/** The list fills a menu while the person waits: past this the menu shows the configured model only. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;
/** More names than a menu can usefully show; the rest are dropped (the configured model is always offered). */
export const MODEL_LIST_MAX_MODELS = 1000;
/** The config's own bound on a model name (web/core/config). */
const MAX_NAME = 256;

export interface ListModelsOptions {
  config: Pick<ModelConfig, 'protocol' | 'base_url' | 'api_key_env' | 'route' | 'provider'>;
  /** Reads a credential by name (the secrets store in the browser); the key is only attached after the origin check. */
  getKey: (name: string) => Promise<string | undefined> | string | undefined;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** The paired bridge, needed when the config's route is 'bridge'. */
  getBridge?: () => Promise<BridgeEndpoint | null> | BridgeEndpoint | null;
  /** Defaults to MODEL_LIST_TIMEOUT_MS; lower in tests of the deadline. */
  timeoutMs?: number;
}

interface ListRequest {
  url: string;
  headers: Record<string, string>;
  auth: { header: string; prefix: string } | null;
}

function listRequest(config: ListModelsOptions['config']): ListRequest {
  const base = config.base_url.replace(/\/+$/, '');
  if (config.provider || !isBuiltinProtocol(config.protocol)) {
    throw new HarnessError(
      'E_MODELS_UNSUPPORTED',
      `The protocol "${config.protocol}" is served by a provider worker, which has no model list. Type the model name in Settings → Model instead.`,
      { protocol: config.protocol },
    );
  }
  if (config.protocol === 'anthropic') {
    return {
      url: `${base}/v1/models?limit=1000`,
      headers: { 'anthropic-version': ANTHROPIC_VERSION, 'anthropic-dangerous-direct-browser-access': 'true' },
      auth: { header: 'x-api-key', prefix: '' },
    };
  }
  return { url: `${base}/models`, headers: {}, auth: { header: 'authorization', prefix: 'Bearer ' } };
}

const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** Model ids from `{data: [{id}]}` (OpenAI-compatible and Anthropic alike): strings only, unique, sorted, bounded. */
export function parseModelList(value: unknown): string[] {
  const data = (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new HarnessError(
      'E_MODELS_RESPONSE',
      'The provider answered the model list without a "data" array. Check base_url points at the API (for example ending in /v1).',
    );
  }
  const ids = new Set<string>();
  for (const item of data) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && id.trim() !== '' && id.length <= MAX_NAME && !hasControl(id)) ids.add(id);
    if (ids.size >= MODEL_LIST_MAX_MODELS) break;
  }
  return [...ids].sort((a, b) => a.localeCompare(b));
}

async function readText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of boundedChunks(body, MODEL_LIST_MAX_BYTES))
      text += decoder.decode(chunk, { stream: true });
  } catch (e) {
    if (HarnessError.isInstance(e) && e.code === 'E_BODY_TOO_LARGE') {
      throw new HarnessError(
        'E_MODELS_TOO_LARGE',
        `The provider's model list is larger than ${MODEL_LIST_MAX_BYTES} bytes, so it was not read. Type the model name in Settings → Model instead.`,
        {
          limit: MODEL_LIST_MAX_BYTES,
        },
      );
    }
    throw e;
  }
  return text + decoder.decode();
}

/**
 * The provider's model ids. Throws a HarnessError: E_MODELS_UNSUPPORTED (custom protocol), E_MODELS_TIMEOUT,
 * E_MODELS_TOO_LARGE, E_MODELS_RESPONSE, or the transport's own codes (E_CREDENTIAL_MISSING, E_PROVIDER_AUTH,
 * E_PROVIDER_HTTP, E_NETWORK, E_REDIRECT_REFUSED, E_ORIGIN_MISMATCH, E_BRIDGE_UNAVAILABLE, E_ABORTED).
 */
export async function listProviderModels(options: ListModelsOptions): Promise<string[]> {
  const { config } = options;
  const req = listRequest(config);
  const target = checkSameOrigin(req.url, config.base_url);
  const headers = { ...req.headers };
  if (req.auth && config.api_key_env) {
    const key = await options.getKey(config.api_key_env);
    if (key === undefined || key === null) {
      throw new HarnessError(
        'E_CREDENTIAL_MISSING',
        `No API key is stored under "${config.api_key_env}". Add it in Settings → Model.`,
        { name: config.api_key_env },
      );
    }
    checkSecretValue(key);
    headers[req.auth.header] = req.auth.prefix + key;
  }
  const route = config.route ?? 'direct';
  const bridge = route === 'bridge' ? ((await options.getBridge?.()) ?? null) : null;
  if (route === 'bridge' && !bridge) {
    throw new HarnessError(
      'E_BRIDGE_UNAVAILABLE',
      'This provider is set to go through the bridge, but no bridge is paired. Start i-bridge and pair it, or switch the route to direct.',
    );
  }

  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS);
  const onAbort = () => deadline.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) deadline.abort();
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const stopped = () =>
    timedOut ? timeoutError(options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS, target.origin) : abortedError();
  try {
    let res: Response;
    try {
      res = bridge
        ? await doFetch(bridge.url.replace(/\/+$/, '') + '/v1/proxy', {
            method: 'POST',
            headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ url: req.url, method: 'GET', headers }),
            redirect: 'error',
            signal: deadline.signal,
          })
        : await doFetch(req.url, { method: 'GET', headers, redirect: 'error', signal: deadline.signal });
    } catch (e) {
      if (deadline.signal.aborted) throw stopped();
      if (isRedirectFailure(e)) throw redirectError(target.origin);
      throw networkError(e, target.origin, route);
    }
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
      res.body?.cancel().catch(() => undefined);
      throw redirectError(target.origin);
    }
    let text: string;
    try {
      text = await readText(res.body);
    } catch (e) {
      if (deadline.signal.aborted) throw stopped();
      if (HarnessError.isInstance(e)) throw e;
      throw networkError(e, target.origin, route);
    }
    if (!res.ok) throw httpError(res.status, text, target.origin);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HarnessError(
        'E_MODELS_RESPONSE',
        `The provider's model list is not JSON (${res.headers.get('content-type') ?? 'no content type'}). Check base_url points at the API, not a web page.`,
        {
          start: text.slice(0, 200),
        },
      );
    }
    return parseModelList(value);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function timeoutError(ms: number, origin: string): HarnessError {
  return new HarnessError(
    'E_MODELS_TIMEOUT',
    `${origin} did not list its models within ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}. Check that the server runs, or type the model name in Settings → Model.`,
    {
      origin,
      ms,
    },
  );
}
