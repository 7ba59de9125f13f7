// Header rules of seed 003: names and auth prefixes are HTTP tokens; routing/transport headers cannot be set by a
// provider; the auth header may not also appear among the plain headers (case-insensitive).
import { HarnessError } from '../contracts';
import type { AuthSpec } from '../providers';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An auth prefix is empty or one token optionally followed by one space (`Bearer `, `Key `, `Token`). */
const PREFIX = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+ ?)?$/;
const BAD_VALUE = /[\r\n\0]/;

export const FORBIDDEN_HEADERS: readonly string[] = [
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'proxy-authorization',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
];

export const isHttpToken = (name: string): boolean => TOKEN.test(name);

/** Returns lower-cased, validated headers. Throws E_HEADER_INVALID / E_HEADER_FORBIDDEN with the offending name. */
export function checkHeaders(headers: unknown, auth: AuthSpec | null): Record<string, string> {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new HarnessError(
      'E_HEADER_INVALID',
      'The provider returned headers that are not an object of strings. Fix the provider so headers is {"name": "value"}.',
    );
  }
  const out: Record<string, string> = {};
  const authName = auth ? auth.header.toLowerCase() : null;
  for (const [name, value] of Object.entries(headers)) {
    if (!isHttpToken(name)) {
      throw new HarnessError(
        'E_HEADER_INVALID',
        `Header name "${name}" is not a valid HTTP token. Use letters, digits and -.`,
        { header: name },
      );
    }
    if (typeof value !== 'string' || BAD_VALUE.test(value)) {
      throw new HarnessError('E_HEADER_INVALID', `Header "${name}" must be a single-line string value.`, {
        header: name,
      });
    }
    const lower = name.toLowerCase();
    if (FORBIDDEN_HEADERS.includes(lower)) {
      throw new HarnessError(
        'E_HEADER_FORBIDDEN',
        `Header "${name}" controls routing or transport and is set by the harness only. Remove it from the provider's headers.`,
        {
          header: name,
        },
      );
    }
    if (lower === authName) {
      throw new HarnessError(
        'E_HEADER_FORBIDDEN',
        `Header "${name}" duplicates the auth header. The key is attached by the harness; remove it from the provider's headers.`,
        {
          header: name,
        },
      );
    }
    if (lower in out) {
      throw new HarnessError(
        'E_HEADER_INVALID',
        `Header "${name}" appears twice (names are case-insensitive). Keep one.`,
        { header: name },
      );
    }
    out[lower] = value;
  }
  return out;
}

export function checkAuthSpec(auth: unknown): AuthSpec | null {
  if (auth === null || auth === undefined) return null;
  const a = auth as Partial<AuthSpec>;
  if (typeof a.header !== 'string' || !isHttpToken(a.header)) {
    throw new HarnessError(
      'E_AUTH_SPEC_INVALID',
      'The auth header name is not a valid HTTP token. Fix the provider\'s auth.header (e.g. "authorization").',
    );
  }
  const prefix = a.prefix ?? '';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new HarnessError(
      'E_AUTH_SPEC_INVALID',
      'The auth prefix must be empty or one HTTP token with an optional trailing space (e.g. "Bearer "). Fix the provider\'s auth.prefix.',
    );
  }
  if (FORBIDDEN_HEADERS.includes(a.header.toLowerCase())) {
    throw new HarnessError(
      'E_HEADER_FORBIDDEN',
      `The key cannot travel in "${a.header}": it is a transport header. Use another header name.`,
      { header: a.header },
    );
  }
  return { header: a.header, prefix };
}

/** The key goes into one header value: refuse control characters rather than let them split the request. */
export function checkSecretValue(secret: string): void {
  if (BAD_VALUE.test(secret) || secret.length === 0) {
    throw new HarnessError(
      'E_CREDENTIAL_INVALID',
      'The stored API key is empty or contains a line break. Paste the key again in the credentials settings.',
    );
  }
}
