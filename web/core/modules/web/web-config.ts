// web.json (seed 000 §4, §9): the web_search service (GET or POST, parameter and result mapping, a credential by
// reference) and web_fetch's private-network option. Strict: unknown keys are refused with their path.
//
// {
//   "search": {
//     "url": "https://api.search.example/v1/search", "method": "GET",
//     "params": {"q": "{query}", "count": "{limit}"},          // GET: query string; POST: JSON body
//     "headers": {"accept": "application/json"},
//     "auth": {"header": "X-Subscription-Token", "prefix": "", "secret": "SEARCH_KEY"},
//     "results": {"items": "web.results", "title": "title", "url": "url", "snippet": "description"},
//     "max_results": 5
//   },
//   "fetch": {"allow_private": false}
// }
//
// `{query}` and `{limit}` are replaced inside string values; a value that is exactly "{limit}" becomes a number.
// The secret is looked up by name through the getSecret port when a search runs; it never enters the prompt, the
// tool schema or the output.
import { HarnessError } from '../../contracts';
import { WEB_SEARCH_MAX_RESULTS } from './limits';

export interface WebSearchConfig {
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string | number | boolean>;
  headers: Record<string, string>;
  auth?: { header: string; prefix: string; secret: string };
  results: { items: string; title: string; url: string; snippet?: string };
  max_results: number;
}

export interface WebConfig {
  search?: WebSearchConfig;
  fetch: { allow_private: boolean };
}

const fail = (at: string, why: string) => new HarnessError('E_WEB_CONFIG_INVALID', `At ${at}: ${why}`, { at });

function obj(value: unknown, at: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(at, 'expected an object.');
  for (const k of Object.keys(value))
    if (!keys.includes(k)) throw fail(`${at}.${k}`, `unknown key; allowed: ${keys.join(', ')}.`);
  return value as Record<string, unknown>;
}

function str(value: unknown, at: string, opts: { empty?: boolean } = {}): string {
  if (typeof value !== 'string' || (!opts.empty && value === '')) throw fail(at, 'expected a non-empty string.');
  return value;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'cookie', 'connection', 'transfer-encoding']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function checkServiceUrl(raw: string, at: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(at, 'expected an absolute URL.');
  }
  if (url.username || url.password)
    throw fail(at, 'credentials do not belong in the URL; use "auth" with a secret name.');
  // Plain http would send the credential in clear: allowed only to this machine (e.g. a local SearXNG).
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw fail(at, 'expected an https URL (http only for localhost).');
  return url.href;
}

/** web.json `search` alone (the app stores it in Settings → Agent; at = where it sits, for the error path). */
export function validateWebSearchConfig(value: unknown, at: string): WebSearchConfig {
  const v = obj(value, at, ['url', 'method', 'params', 'headers', 'auth', 'results', 'max_results']);
  const method = v.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') throw fail(`${at}.method`, 'expected "GET" or "POST".');
  const params: Record<string, string | number | boolean> = {};
  const rawParams = obj(v.params ?? {}, `${at}.params`, Object.keys((v.params as object | undefined) ?? {}));
  for (const [k, p] of Object.entries(rawParams)) {
    if (typeof p !== 'string' && typeof p !== 'number' && typeof p !== 'boolean')
      throw fail(`${at}.params.${k}`, 'expected a string, number or boolean.');
    params[k] = p;
  }
  if (!Object.values(params).some((p) => typeof p === 'string' && p.includes('{query}')))
    throw fail(`${at}.params`, 'one parameter must contain "{query}".');
  const headers: Record<string, string> = {};
  const rawHeaders = obj(v.headers ?? {}, `${at}.headers`, Object.keys((v.headers as object | undefined) ?? {}));
  for (const [k, h] of Object.entries(rawHeaders)) {
    if (!HEADER_NAME.test(k) || FORBIDDEN_HEADERS.has(k.toLowerCase()))
      throw fail(`${at}.headers.${k}`, 'not an allowed header name.');
    headers[k] = str(h, `${at}.headers.${k}`, { empty: true });
  }
  let auth: WebSearchConfig['auth'];
  if (v.auth !== undefined) {
    const a = obj(v.auth, `${at}.auth`, ['header', 'prefix', 'secret']);
    const header = str(a.header, `${at}.auth.header`);
    if (!HEADER_NAME.test(header)) throw fail(`${at}.auth.header`, 'not a valid header name.');
    auth = {
      header,
      prefix: a.prefix === undefined ? '' : str(a.prefix, `${at}.auth.prefix`, { empty: true }),
      secret: str(a.secret, `${at}.auth.secret`),
    };
  }
  const r = obj(v.results, `${at}.results`, ['items', 'title', 'url', 'snippet']);
  const results: WebSearchConfig['results'] = {
    items: str(r.items, `${at}.results.items`, { empty: true }),
    title: str(r.title, `${at}.results.title`),
    url: str(r.url, `${at}.results.url`),
  };
  if (r.snippet !== undefined) results.snippet = str(r.snippet, `${at}.results.snippet`);
  const max = v.max_results ?? 5;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > WEB_SEARCH_MAX_RESULTS)
    throw fail(`${at}.max_results`, `expected a whole number from 1 to ${WEB_SEARCH_MAX_RESULTS}.`);
  const out: WebSearchConfig = {
    url: checkServiceUrl(str(v.url, `${at}.url`), `${at}.url`),
    method,
    params,
    headers,
    results,
    max_results: max,
  };
  if (auth) out.auth = auth;
  return out;
}

export function validateWebConfig(value: unknown, at = 'web.json'): WebConfig {
  const v = obj(value, at, ['search', 'fetch']);
  const f = obj(v.fetch ?? {}, `${at}.fetch`, ['allow_private']);
  if (f.allow_private !== undefined && typeof f.allow_private !== 'boolean')
    throw fail(`${at}.fetch.allow_private`, 'expected true or false.');
  const out: WebConfig = { fetch: { allow_private: f.allow_private === true } };
  if (v.search !== undefined) out.search = validateWebSearchConfig(v.search, `${at}.search`);
  return out;
}
