// `extra_body` is merged into the request body last, so it could silently replace what the harness controls.
// Seed 003: built-in providers refuse overrides of model, history, tools, output limit, stream and server-side
// session state, and extra_body is never a credential store (seed 000 §4).
import { HarnessError } from '../contracts';
import { isObject } from './json-text';

const COMMON = ['model', 'stream', 'stream_options', 'tools'];

/** Control fields per built-in protocol that `extra_body` may not set. */
export const RESERVED_EXTRA_BODY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  openai: [...COMMON, 'messages', 'functions', 'max_tokens', 'max_completion_tokens', 'n'],
  deepseek: [...COMMON, 'messages', 'functions', 'max_tokens', 'max_completion_tokens', 'n'],
  anthropic: [...COMMON, 'messages', 'system', 'max_tokens'],
  responses: [
    ...COMMON,
    'input',
    'instructions',
    'max_output_tokens',
    'store',
    'previous_response_id',
    'conversation',
    'include',
    'background',
  ],
};

// Names that look like a credential. Careful: `max_tokens` and Anthropic's `budget_tokens` are not credentials.
const CREDENTIAL_NAME =
  /(^|[_-])(api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|authorization|auth[_-]?token|access[_-]?token|refresh[_-]?token|session[_-]?token|bearer|credentials?|private[_-]?key)$/i;
const CREDENTIAL_VALUE = /^(sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{8,}|Bearer\s+\S+|xox[abp]-)/;

function findCredential(value: unknown, path: string): string | null {
  if (typeof value === 'string') return CREDENTIAL_VALUE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findCredential(value[i], `${path}.${i}`);
      if (hit) return hit;
    }
    return null;
  }
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (CREDENTIAL_NAME.test(k)) return `${path}.${k}`;
      const hit = findCredential(v, `${path}.${k}`);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * Validates `extra_body` for a protocol. Reserved fields are checked only for the built-in protocols (a custom
 * provider enforces its own rules); credential-looking keys and values are refused for every protocol.
 */
export function validateExtraBody(protocol: string, extraBody: unknown, path = 'extra_body'): Record<string, unknown> {
  if (extraBody === undefined || extraBody === null) return {};
  if (!isObject(extraBody)) {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `At ${path}: expected an object of extra request fields. Use {} when there are none.`,
      { path },
    );
  }
  const reserved = RESERVED_EXTRA_BODY_FIELDS[protocol] ?? [];
  for (const key of Object.keys(extraBody)) {
    if (reserved.includes(key)) {
      throw new HarnessError(
        'E_EXTRA_BODY_RESERVED',
        `At ${path}.${key}: "${key}" is controlled by the harness for protocol "${protocol}" and cannot be overridden. Remove it from extra_body and use the matching setting instead.`,
        { path: `${path}.${key}`, field: key, protocol },
      );
    }
  }
  const secret = findCredential(extraBody, path);
  if (secret) {
    throw new HarnessError(
      'E_EXTRA_BODY_CREDENTIAL',
      `At ${secret}: extra_body looks like it holds a credential. Keys belong in the credentials store, referenced by api_key_env; remove it from extra_body.`,
      { path: secret },
    );
  }
  return extraBody;
}
