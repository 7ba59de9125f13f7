// The provider's model list for the composer's model switcher, and what it says about each model's context window
// for Settings → Model (OpenRouter and vLLM state `context_length`, vLLM `max_model_len`, LM Studio's own API
// `max_context_length`, Ollama's `POST /api/show` its `num_ctx` or trained length): `GET {base}/models` for the OpenAI-compatible
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

/** The largest window taken from a listing: above this (100 M tokens) a number is a mistake, not a model. */
export const MAX_LISTED_WINDOW = 100_000_000;

/** One model of a listing and what it says about the model. */
export interface ListedModel {
  id: string;
  /** Tokens the model reads at once, when the listing states it as a whole number in 1..MAX_LISTED_WINDOW. */
  context_window?: number;
  /** The field it came from. */
  context_field?: string;
}

/** The fields servers put a model's window in, first wins: OpenRouter and vLLM, vLLM, LM Studio's own API. */
const WINDOW_FIELDS = ['context_length', 'max_model_len', 'max_context_length'] as const;

const windowValue = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_LISTED_WINDOW ? v : undefined;

/**
 * `{data: [{id, context_length | max_model_len | max_context_length}]}` (OpenRouter's `top_provider.context_length`
 * too): the models, with their windows where stated. A missing `data` array is E_MODELS_RESPONSE; a size that is
 * not a whole number in range is left out (the model is still listed), never guessed.
 */
export function parseModelListing(value: unknown): ListedModel[] {
  const ids = new Set(parseModelList(value));
  const out: ListedModel[] = [];
  const seen = new Set<string>();
  for (const item of (value as { data: unknown[] }).data) {
    if (typeof item !== 'object' || item === null) continue;
    const o = item as Record<string, unknown>;
    if (typeof o.id !== 'string' || !ids.has(o.id) || seen.has(o.id)) continue;
    seen.add(o.id);
    const m: ListedModel = { id: o.id };
    const top = (o.top_provider as Record<string, unknown> | null | undefined) ?? undefined;
    for (const [field, v] of [
      ...WINDOW_FIELDS.map((f) => [f, o[f]] as const),
      ['top_provider.context_length', typeof top === 'object' ? top.context_length : undefined] as const,
    ]) {
      const w = windowValue(v);
      if (w !== undefined) {
        m.context_window = w;
        m.context_field = field;
        break;
      }
    }
    out.push(m);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Ollama's `POST /api/show` answer: the window the model runs with when its Modelfile sets `num_ctx` (in
 * `parameters`, one "name value" per line), else the trained length, `model_info["<arch>.context_length"]`. Null
 * when it states neither; E_MODEL_INFO_RESPONSE when the answer is not an object.
 */
export function parseOllamaShow(value: unknown): { window: number; field: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw infoError('Ollama', '/api/show');
  const o = value as Record<string, unknown>;
  if (typeof o.parameters === 'string') {
    const m = /^\s*num_ctx\s+(\d{1,9})\s*$/m.exec(o.parameters);
    const w = m ? windowValue(Number(m[1])) : undefined;
    if (w !== undefined) return { window: w, field: 'num_ctx' };
  }
  const info = o.model_info;
  if (typeof info !== 'object' || info === null) return null;
  const entries = Object.entries(info as Record<string, unknown>);
  const arch = (info as Record<string, unknown>)['general.architecture'];
  const preferred = typeof arch === 'string' ? `${arch}.context_length` : null;
  for (const [k, v] of [
    ...entries.filter(([k]) => k === preferred),
    ...entries.filter(([k]) => k.endsWith('.context_length')),
  ]) {
    const w = windowValue(v);
    if (w !== undefined) return { window: w, field: k };
  }
  return null;
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

/** One GET (or POST with a JSON body) to the provider, under the list's rules; the answer's JSON value. */
interface JsonAsk {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  auth: { header: string; prefix: string } | null;
  body?: string;
}

async function askJson(options: ListModelsOptions, ask: JsonAsk): Promise<unknown> {
  const { config } = options;
  const target = checkSameOrigin(ask.url, config.base_url);
  const headers = { ...ask.headers };
  if (ask.body !== undefined) headers['content-type'] = 'application/json';
  if (ask.auth && config.api_key_env) {
    const key = await options.getKey(config.api_key_env);
    if (key === undefined || key === null) {
      throw new HarnessError(
        'E_CREDENTIAL_MISSING',
        `No API key is stored under "${config.api_key_env}". Add it in Settings → Model.`,
        { name: config.api_key_env },
      );
    }
    checkSecretValue(key);
    headers[ask.auth.header] = ask.auth.prefix + key;
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
            body: JSON.stringify({
              url: ask.url,
              method: ask.method,
              headers,
              ...(ask.body !== undefined ? { body: ask.body } : {}),
            }),
            redirect: 'error',
            signal: deadline.signal,
          })
        : await doFetch(ask.url, {
            method: ask.method,
            headers,
            ...(ask.body !== undefined ? { body: ask.body } : {}),
            redirect: 'error',
            signal: deadline.signal,
          });
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
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new HarnessError(
        'E_MODELS_RESPONSE',
        `The provider's model list is not JSON (${res.headers.get('content-type') ?? 'no content type'}). Check base_url points at the API, not a web page.`,
        {
          start: text.slice(0, 200),
        },
      );
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

const listAsk = (config: ListModelsOptions['config']): JsonAsk => ({ ...listRequest(config), method: 'GET' });

/**
 * The provider's model ids. Throws a HarnessError: E_MODELS_UNSUPPORTED (custom protocol), E_MODELS_TIMEOUT,
 * E_MODELS_TOO_LARGE, E_MODELS_RESPONSE, or the transport's own codes (E_CREDENTIAL_MISSING, E_PROVIDER_AUTH,
 * E_PROVIDER_HTTP, E_NETWORK, E_REDIRECT_REFUSED, E_ORIGIN_MISMATCH, E_BRIDGE_UNAVAILABLE, E_ABORTED).
 */
export async function listProviderModels(options: ListModelsOptions): Promise<string[]> {
  return parseModelList(await askJson(options, listAsk(options.config)));
}

/**
 * The provider's models with what the listing says about each (today: the context window), under the same rules
 * and errors as listProviderModels.
 */
export async function listProviderModelDetails(options: ListModelsOptions): Promise<ListedModel[]> {
  return parseModelListing(await askJson(options, listAsk(options.config)));
}

/** Servers whose own API says more than their OpenAI-compatible list; chosen by the preset, never guessed. */
export type ServerKind = 'ollama' | 'lm-studio';

/** Where a context window came from: the server's list (and which field), or the server's own model API. */
export interface FoundContextWindow {
  window: number;
  /** The field that held it, e.g. `context_length`, `max_model_len`, `max_context_length`, `num_ctx`. */
  field: string;
  /** The request that answered, e.g. `GET /models`, `POST /api/show`. */
  from: string;
}

/**
 * The context window the server states for `model`, or null when it states none (a list without sizes, a model it
 * does not list). Asks `GET {base}/models` first; for Ollama then `POST {root}/api/show` (its `/v1/models` has no
 * sizes), for LM Studio `GET {root}/api/v0/models`. Errors as listProviderModels; the extra APIs' failures are
 * thrown only when the list itself had nothing (E_MODEL_INFO_RESPONSE for a bad answer of theirs).
 */
export async function findServerContextWindow(
  options: ListModelsOptions & { model: string; server?: ServerKind | null },
): Promise<FoundContextWindow | null> {
  const listed = await listProviderModelDetails(options);
  const hit = listed.find((m) => m.id === options.model);
  const listPath = new URL(listAsk(options.config).url).pathname;
  if (hit?.context_window) return { window: hit.context_window, field: hit.context_field!, from: `GET ${listPath}` };
  const root = serverRoot(options.config.base_url);
  if (options.server === 'ollama') {
    const value = await askJson(options, {
      url: `${root}/api/show`,
      method: 'POST',
      headers: {},
      auth: null,
      body: JSON.stringify({ model: options.model }),
    });
    const found = parseOllamaShow(value);
    return found ? { ...found, from: 'POST /api/show' } : null;
  }
  if (options.server === 'lm-studio') {
    const value = await askJson(options, { url: `${root}/api/v0/models`, method: 'GET', headers: {}, auth: null });
    let native: ListedModel[];
    try {
      native = parseModelListing(value);
    } catch {
      throw infoError('LM Studio', '/api/v0/models');
    }
    const m = native.find((x) => x.id === options.model);
    return m?.context_window ? { window: m.context_window, field: m.context_field!, from: 'GET /api/v0/models' } : null;
  }
  return null;
}

/** The server's address without the OpenAI-compatible `/v1` (Ollama's and LM Studio's own APIs live beside it). */
function serverRoot(base: string): string {
  return base.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const infoError = (server: string, path: string) =>
  new HarnessError(
    'E_MODEL_INFO_RESPONSE',
    `${server} answered ${path} with something that is not its model description. Check the address, or type the context window yourself.`,
    { path },
  );

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
