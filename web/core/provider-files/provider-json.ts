// provider.json (seed 000 §4): how images reach the model. Default {"images": "base64"}. "files" uploads each image
// once and references it by file_id, and needs a second, separate authorisation: provider_operations: true in the
// model config (the extra requests are the core's, with the key). Either switch alone changes nothing and says so.
import { HarnessError } from '../contracts';
import { anthropicFiles, openaiFiles, type VendorFiles } from '../providers';

export const MIN_EXPIRES_AFTER_SECONDS = 3600;
export const MAX_EXPIRES_AFTER_SECONDS = 2_592_000;

export interface ProviderJson {
  images: 'base64' | 'files';
  /** Names the account the uploads belong to: a file_id is only reused under the same scope. */
  account_scope: string | null;
  /** Lifetime asked of the vendor (where it supports one) and trusted locally; null: until deleted. */
  expires_after_seconds: number | null;
  /**
   * Optional lifecycle, off by default: at the first step of a run, delete (as cleanup) up to 4 uploads of this
   * registry whose local expiry passed. Runs only with provider_cleanup: true in the model config too; never by YOLO.
   */
  gc_expired?: true;
}

export const DEFAULT_PROVIDER_JSON: ProviderJson = {
  images: 'base64',
  account_scope: null,
  expires_after_seconds: null,
};

const KEYS = ['images', 'account_scope', 'expires_after_seconds', 'gc_expired'];
const FIX =
  'Write {"images": "base64"|"files", "account_scope": "my-account", "expires_after_seconds": 86400} or remove the file (default: base64).';

/** Validates provider.json's parsed JSON; `where` names the file (or Settings) in the message. */
export function parseProviderJson(value: unknown, where: string): ProviderJson {
  const bad = (path: string, what: string) =>
    new HarnessError('E_CONFIG_INVALID', `The provider settings ${where} are invalid. At ${path}: ${what}. ${FIX}`, {
      file: where,
      path,
    });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('(root)', 'expected a JSON object');
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) if (!KEYS.includes(k)) throw bad(k, 'unknown key');
  const images = v.images ?? 'base64';
  if (images !== 'base64' && images !== 'files') throw bad('images', 'expected "base64" or "files"');
  const scope = v.account_scope ?? null;
  if (scope !== null && (typeof scope !== 'string' || !/^[\w.:@-]{1,128}$/.test(scope)))
    throw bad('account_scope', 'expected 1-128 letters, digits, ".", ":", "@", "_" or "-"');
  const expires = v.expires_after_seconds ?? null;
  if (
    expires !== null &&
    (typeof expires !== 'number' ||
      !Number.isInteger(expires) ||
      expires < MIN_EXPIRES_AFTER_SECONDS ||
      expires > MAX_EXPIRES_AFTER_SECONDS)
  ) {
    throw bad(
      'expires_after_seconds',
      `expected a whole number of seconds from ${MIN_EXPIRES_AFTER_SECONDS} to ${MAX_EXPIRES_AFTER_SECONDS} (the vendors' range)`,
    );
  }
  if (v.gc_expired !== undefined && typeof v.gc_expired !== 'boolean')
    throw bad('gc_expired', 'expected true or false');
  return {
    images,
    account_scope: scope as string | null,
    expires_after_seconds: expires as number | null,
    ...(v.gc_expired === true ? { gc_expired: true as const } : {}),
  };
}

/** The vendors whose Files API a built-in adapter can reference from a model request. */
const VENDORS: Record<string, VendorFiles> = { responses: openaiFiles, anthropic: anthropicFiles };

export const vendorFilesFor = (protocol: string): VendorFiles | null => VENDORS[protocol] ?? null;

/** Why a protocol keeps base64 although Files were asked for; shown in Settings and as the notice. */
export function filesUnsupportedReason(protocol: string): string | null {
  if (VENDORS[protocol]) return null;
  if (protocol === 'openai')
    return 'Chat Completions takes images only inline (image_url); OpenAI references uploaded images from the Responses API: choose protocol "responses" to use Files.';
  if (protocol === 'deepseek')
    return 'DeepSeek documents a Files API (POST /files), but not yet how a Chat Completions request references an uploaded image in a form this harness can verify, so images stay base64.';
  return `Protocol "${protocol}" is not a built-in adapter with a Files API; images stay base64.`;
}

export interface FilesPolicy {
  /** 'files' only when both switches are on and the protocol can reference uploads. */
  mode: 'files' | 'base64';
  scope: string;
  expiresAfterSeconds: number | null;
  vendor: VendorFiles | null;
  /** What the person should know: one switch without the other, or a protocol without Files. */
  notice: { code: string; message: string } | null;
  /** gc_expired with provider_cleanup: delete this registry's expired uploads once per run (bounded). */
  gc: boolean;
}

/** Who the uploads belong to: provider.json's account_scope, else base_url's origin + the key's name. */
export function accountScope(
  provider: Pick<ProviderJson, 'account_scope'>,
  baseUrl: string,
  apiKeyName: string | null,
): string {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    // an invalid base_url fails later with its own error; the scope only needs to be stable
  }
  return provider.account_scope ?? `${origin}#${apiKeyName ?? 'no-key'}`;
}

/**
 * Double authorisation: Files need images "files" AND provider_operations true. The scope defaults to the origin
 * plus the key's name, so two accounts on one server never share file_ids unless the person says they may.
 */
export function filesPolicy(p: {
  provider: ProviderJson;
  providerOperations: boolean;
  providerCleanup?: boolean;
  protocol: string;
  baseUrl: string;
  apiKeyName: string | null;
  route?: string;
}): FilesPolicy {
  const scope = accountScope(p.provider, p.baseUrl, p.apiKeyName);
  const base = { scope, expiresAfterSeconds: p.provider.expires_after_seconds, vendor: null, gc: false } as const;
  const wantsFiles = p.provider.images === 'files';
  if (wantsFiles && !p.providerOperations) {
    return {
      ...base,
      mode: 'base64',
      notice: {
        code: 'N_PROVIDER_FILES_NOT_AUTHORISED',
        message:
          'provider.json asks for images as "files", but the model config does not set provider_operations: true, so nothing is uploaded and images go as base64. Set "provider_operations": true in the model config to allow the uploads.',
      },
    };
  }
  if (!wantsFiles && p.providerOperations) {
    return {
      ...base,
      mode: 'base64',
      notice: {
        code: 'N_PROVIDER_OPERATIONS_UNUSED',
        message:
          'provider_operations is true, but provider.json keeps images as "base64" (the default), so nothing is uploaded. Set "images": "files" in provider.json to upload each image once.',
      },
    };
  }
  if (!wantsFiles) return { ...base, mode: 'base64', notice: null };
  const vendor = vendorFilesFor(p.protocol);
  if (!vendor)
    return {
      ...base,
      mode: 'base64',
      notice: { code: 'N_PROVIDER_FILES_UNSUPPORTED', message: filesUnsupportedReason(p.protocol)! },
    };
  if (p.route === 'bridge') {
    return {
      ...base,
      mode: 'base64',
      notice: {
        code: 'N_PROVIDER_FILES_UNSUPPORTED',
        message:
          'This provider goes through the bridge, whose proxy carries JSON bodies only, so uploads are not possible and images go as base64. Switch the route to direct to use Files.',
      },
    };
  }
  if (p.provider.gc_expired && !p.providerCleanup) {
    return {
      ...base,
      mode: 'files',
      vendor,
      notice: {
        code: 'N_PROVIDER_FILES_GC_NOT_AUTHORISED',
        message:
          'provider.json asks to delete expired uploads (gc_expired), but the model config does not set provider_cleanup: true, so nothing is deleted. Set "provider_cleanup": true to allow it (--yolo never does).',
      },
    };
  }
  return { ...base, mode: 'files', vendor, notice: null, gc: p.provider.gc_expired === true };
}
