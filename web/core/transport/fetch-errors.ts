// Turning fetch failures and HTTP error answers into errors a person can act on.
import { HarnessError } from '../contracts';
import { htmlPageText, isHtmlPage } from './html-error-page';

const causeText = (e: unknown): string => {
  const c = (e as { cause?: unknown })?.cause;
  if (c instanceof Error)
    return `${c.message}${(c as { code?: string }).code ? ` (${(c as { code?: string }).code})` : ''}`;
  return typeof c === 'string' ? c : '';
};

export function abortedError(): HarnessError {
  return new HarnessError('E_ABORTED', 'The model request was cancelled.');
}

/**
 * Failures that a retry a few seconds later will not fix, told apart only where the runtime says why (Node's fetch
 * gives a `cause`; Chrome's opaque TypeError never does, so the browser keeps retrying): no such host, a port fetch
 * refuses to use, a certificate that does not verify. A refused connection is retried: a local server restarting
 * or a tunnel reconnecting comes back within the backoff.
 */
const PERMANENT_CODES = new Set([
  'ENOTFOUND',
  'EAI_FAIL',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
export function isPermanentNetworkFailure(e: unknown): boolean {
  const c = (e as { cause?: unknown })?.cause;
  if (!(c instanceof Error)) return false;
  return PERMANENT_CODES.has((c as { code?: string }).code ?? '') || /^bad port$/i.test(c.message);
}

/** True when a fetch failure is a refused redirect (Node's fetch says so in `cause`; Chrome cannot be told apart). */
export function isRedirectFailure(e: unknown): boolean {
  return /redirect/i.test(causeText(e)) || /redirect/i.test(e instanceof Error ? e.message : '');
}

export function redirectError(origin: string): HarnessError {
  return new HarnessError(
    'E_REDIRECT_REFUSED',
    `${origin} answered with a redirect. Model requests never follow redirects (the key could leak); set base_url to the final address.`,
    { origin },
  );
}

/**
 * Chrome reports a CORS refusal, an unreachable server, a denied Local Network Access prompt and blocked mixed
 * content as the same opaque `TypeError: Failed to fetch`, so the message lists every likely cause with its fix.
 */
export function networkError(e: unknown, origin: string, route: 'direct' | 'bridge'): HarnessError {
  const detail = causeText(e) || (e instanceof Error ? e.message : String(e));
  const message =
    route === 'bridge'
      ? `Could not reach the bridge to forward the request to ${origin}. Check that i-bridge is running and paired, then try again.`
      : `The request to ${origin} failed before any answer arrived. The browser does not say why; the likely causes are: ` +
        `the provider does not allow requests from this app (CORS) — switch this provider's route to the bridge; ` +
        `the server is down or base_url is wrong — check the address and that the server runs; ` +
        `Chrome's local network access prompt was denied — allow it in the site settings; ` +
        `an http:// address used from an https:// page (mixed content) — use https or the bridge.`;
  return new HarnessError('E_NETWORK', message, { origin, route, detail });
}

const OVERFLOW =
  /context[_ ]length[_ ]exceeded|maximum context length|context window|prompt is too long|too many tokens|input is too long|exceeds? the (?:model'?s? )?(?:context|maximum)|reduce the length/i;

function providerMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof j.error === 'string') return j.error;
    if (j.error && typeof j.error.message === 'string') return j.error.message;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  if (isHtmlPage(text)) return htmlPageText(text.slice(0, 64 * 1024));
  return text.trim().slice(0, 2000);
}

/** An HTTP error answer, with the provider's own message kept verbatim (the exact error, for Test connection). */
export function httpError(status: number, bodyText: string, origin: string): HarnessError {
  const said = providerMessage(bodyText);
  const data = { status, origin, provider_message: said };
  if (OVERFLOW.test(said) || OVERFLOW.test(bodyText.slice(0, 4000))) {
    return new HarnessError(
      'E_CONTEXT_OVERFLOW',
      `The conversation is longer than the model's context window (${status}: ${said}). Compact the session or lower max_tokens.`,
      data,
    );
  }
  if (status === 401 || status === 403) {
    return new HarnessError(
      'E_PROVIDER_AUTH',
      `The provider refused the key (${status}: ${said}). Check the API key in the credentials store and that it may use this model.`,
      data,
    );
  }
  if (status === 404) {
    return new HarnessError(
      'E_PROVIDER_HTTP',
      `The provider answered 404 (${said}). Check base_url and the model name.`,
      data,
    );
  }
  if (status === 429) {
    return new HarnessError(
      'E_RATE_LIMITED',
      `The provider is rate limiting this key (429: ${said}). Wait a moment or check the plan's limits.`,
      data,
    );
  }
  return new HarnessError('E_PROVIDER_HTTP', `The provider answered ${status}: ${said || 'no details'}.`, data);
}
