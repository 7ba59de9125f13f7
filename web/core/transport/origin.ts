import { HarnessError } from '../contracts';

function parse(url: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HarnessError(
      'E_URL_INVALID',
      `The ${what} "${url.slice(0, 200)}" is not an absolute URL. Use a full http:// or https:// address.`,
      { what },
    );
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new HarnessError('E_URL_INVALID', `The ${what} uses "${u.protocol}"; only http and https are allowed.`, {
      what,
    });
  }
  if (u.username || u.password) {
    throw new HarnessError(
      'E_URL_INVALID',
      `The ${what} contains a user name or password. Remove it and keep the key in the credentials store.`,
      { what },
    );
  }
  return u;
}

/**
 * The final request URL (after the provider and the before_request hook) must share the configured base_url's
 * origin before any key is attached (seed 003): otherwise a hook or a provider could send the key elsewhere.
 */
export function checkSameOrigin(url: string, baseUrl: string): URL {
  const base = parse(baseUrl, 'base_url');
  const target = parse(url, 'request URL');
  if (target.origin !== base.origin) {
    throw new HarnessError(
      'E_ORIGIN_MISMATCH',
      `The request would go to ${target.origin}, but base_url is ${base.origin}. The key is only sent to the configured origin; fix base_url or the hook that changed the URL.`,
      { origin: target.origin, expected: base.origin },
    );
  }
  return target;
}
