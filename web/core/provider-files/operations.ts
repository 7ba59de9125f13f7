// The executor of provider operations (seed 003 附加操作合约): the core, not the provider, sends them. Rules, all
// checked before the key is read: the URL shares base_url's origin; headers are HTTP tokens and no routing/transport
// header (content-type travels as `content_type`, checked); GET and DELETE carry no body; a body is at most 16 MiB.
// Then the key is attached, the request goes once (never retried: an upload that half-happened must not happen
// twice), redirects are refused, and the answer is read up to 16 MiB. At most 8 operations per step within 180 s.
import { HarnessError } from '../contracts';
import type { OperationResult, ProviderOperation } from '../providers';
import { boundedChunks } from '../transport';
import { checkAuthSpec, checkHeaders, checkSecretValue } from '../transport';
import { checkSameOrigin } from '../transport';

export const MAX_OPERATIONS_PER_STEP = 8;
export const OPERATIONS_WINDOW_MS = 180_000;
export const MAX_OPERATION_BYTES = 16 * 1024 * 1024;

/** What the core lends an operation: where it may go, and how to read the key (never given to the provider). */
export interface OperationPorts {
  baseUrl: string;
  apiKeyName: string | null;
  getSecret?: (name: string) => Promise<string | undefined> | string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  signal?: AbortSignal;
}

/** Counts one step's operations: created per step (per prepare), so a later step starts again at 0. */
export interface OperationBudget {
  used: number;
  startedAt: number | null;
}

export const newBudget = (): OperationBudget => ({ used: 0, startedAt: null });

const CONTENT_TYPE =
  /^(multipart\/form-data; boundary=[0-9A-Za-z'()+_,./:=?-]{1,70}|application\/json|application\/octet-stream)$/;

/** Every check that needs no key; throws the refusal. Exported so tests can show nothing was read before it. */
export function checkOperation(op: ProviderOperation, baseUrl: string): { headers: Record<string, string> } {
  if (op.method !== 'GET' && op.method !== 'POST' && op.method !== 'DELETE') {
    throw new HarnessError(
      'E_PROVIDER_OPERATION_INVALID',
      `Provider operations use GET, POST or DELETE, not "${String(op.method)}". Fix the provider.`,
      { method: op.method },
    );
  }
  checkSameOrigin(op.url, baseUrl);
  const auth = checkAuthSpec(op.auth);
  const headers = checkHeaders(op.headers ?? {}, auth);
  const size = op.body?.byteLength ?? 0;
  if (op.method !== 'POST' && (op.body !== undefined || op.content_type !== undefined)) {
    throw new HarnessError(
      'E_PROVIDER_OPERATION_INVALID',
      `A ${op.method} operation sends an empty body. Remove the body from the provider's ${op.method}.`,
      { method: op.method },
    );
  }
  if (size > MAX_OPERATION_BYTES) {
    throw new HarnessError(
      'E_PROVIDER_OPERATION_TOO_LARGE',
      `The operation's body is ${size} bytes; provider operations send at most ${MAX_OPERATION_BYTES} bytes (16 MiB). Send a smaller file, or keep it base64.`,
      { bytes: size, limit: MAX_OPERATION_BYTES },
    );
  }
  if (op.method === 'POST') {
    if (typeof op.content_type !== 'string' || !CONTENT_TYPE.test(op.content_type)) {
      throw new HarnessError(
        'E_PROVIDER_OPERATION_INVALID',
        'A POST operation needs content_type multipart/form-data (with a boundary), application/json or application/octet-stream. Fix the provider.',
        { content_type: String(op.content_type) },
      );
    }
    headers['content-type'] = op.content_type;
  }
  return { headers };
}

/** Runs one operation under the step's budget. Resolves with any HTTP answer; throws refusals and network failures. */
export async function runOperation(
  op: ProviderOperation,
  ports: OperationPorts,
  budget: OperationBudget,
): Promise<OperationResult> {
  const now = ports.now ?? Date.now;
  const t = now();
  if (budget.used >= MAX_OPERATIONS_PER_STEP) {
    throw new HarnessError(
      'E_PROVIDER_OPERATION_LIMIT',
      `A step may run at most ${MAX_OPERATIONS_PER_STEP} provider operations; this would be number ${budget.used + 1}. The rest of the step goes without them.`,
      { limit: MAX_OPERATIONS_PER_STEP },
    );
  }
  if (budget.startedAt !== null && t - budget.startedAt >= OPERATIONS_WINDOW_MS) {
    throw new HarnessError(
      'E_PROVIDER_OPERATION_TIMEOUT',
      `A step's provider operations must finish within ${OPERATIONS_WINDOW_MS / 1000} s of the first one. The rest of the step goes without them.`,
      { limit_ms: OPERATIONS_WINDOW_MS },
    );
  }
  const { headers } = checkOperation(op, ports.baseUrl);
  budget.used++;
  budget.startedAt ??= t;
  // Only now, after every check passed, is the key read and attached.
  const auth = checkAuthSpec(op.auth);
  if (auth && ports.apiKeyName) {
    const secret = await ports.getSecret?.(ports.apiKeyName);
    if (secret === undefined || secret === null) {
      throw new HarnessError(
        'E_CREDENTIAL_MISSING',
        `No API key is stored under "${ports.apiKeyName}". Add it (the credentials settings, or the environment variable for the CLI).`,
        { name: ports.apiKeyName },
      );
    }
    checkSecretValue(secret);
    headers[auth.header.toLowerCase()] = auth.prefix + secret;
  }
  const remaining = OPERATIONS_WINDOW_MS - (t - budget.startedAt);
  const timeout = AbortSignal.timeout(Math.max(1, remaining));
  const signal = ports.signal ? AbortSignal.any([ports.signal, timeout]) : timeout;
  const origin = new URL(op.url).origin;
  let res: Response;
  try {
    res = await (ports.fetch ?? globalThis.fetch.bind(globalThis))(op.url, {
      method: op.method,
      headers,
      redirect: 'error',
      signal,
      ...(op.body ? { body: op.body as BodyInit } : {}),
    });
  } catch (e) {
    if (ports.signal?.aborted) throw new HarnessError('E_ABORTED', 'The provider operation was cancelled.');
    if (timeout.aborted)
      throw new HarnessError(
        'E_PROVIDER_OPERATION_TIMEOUT',
        `The provider operation to ${origin} did not finish within the step's ${OPERATIONS_WINDOW_MS / 1000} s. It is not retried.`,
        { origin },
      );
    const redirect =
      /redirect/i.test(String((e as { cause?: unknown })?.cause ?? '')) ||
      /redirect/i.test(e instanceof Error ? e.message : '');
    if (redirect)
      throw new HarnessError(
        'E_REDIRECT_REFUSED',
        `${origin} answered the provider operation with a redirect; operations never follow redirects (the key could leak). Set base_url to the final address.`,
        { origin },
      );
    throw new HarnessError(
      'E_PROVIDER_OPERATION_NETWORK',
      `The provider operation to ${origin} failed before any answer (${e instanceof Error ? e.message : String(e)}). It is not retried.`,
      { origin },
    );
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    res.body?.cancel().catch(() => undefined);
    throw new HarnessError(
      'E_REDIRECT_REFUSED',
      `${origin} answered the provider operation with a redirect; operations never follow redirects (the key could leak). Set base_url to the final address.`,
      { origin },
    );
  }
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of boundedChunks(res.body, MAX_OPERATION_BYTES))
      text += decoder.decode(chunk, { stream: true });
    text += decoder.decode();
  } catch (e) {
    // The answer can fail half-read (Stop, the step's deadline, a cut connection, too big): the same codes as a
    // fetch that failed, so a person's Stop is never taken for a failed upload.
    if (ports.signal?.aborted) throw new HarnessError('E_ABORTED', 'The provider operation was cancelled.');
    if (timeout.aborted)
      throw new HarnessError(
        'E_PROVIDER_OPERATION_TIMEOUT',
        `The answer of the provider operation to ${origin} did not arrive within the step's ${OPERATIONS_WINDOW_MS / 1000} s. It is not retried.`,
        { origin },
      );
    if (HarnessError.isInstance(e) && e.code === 'E_BODY_TOO_LARGE') {
      throw new HarnessError(
        'E_PROVIDER_OPERATION_TOO_LARGE',
        `The answer of the provider operation to ${origin} is over ${MAX_OPERATION_BYTES} bytes (16 MiB), the operations' limit. It is not retried.`,
        { origin, limit: MAX_OPERATION_BYTES },
      );
    }
    throw new HarnessError(
      'E_PROVIDER_OPERATION_NETWORK',
      `The answer of the provider operation to ${origin} broke off (${e instanceof Error ? e.message : String(e)}). It is not retried.`,
      { origin, status: res.status },
    );
  }
  let body: unknown = text;
  try {
    body = text.trim() ? (JSON.parse(text) as unknown) : null;
  } catch {
    // not JSON: the provider gets the text
  }
  return { status: res.status, body };
}

/** The message a failed operation's answer carries (`{error: {message}}` in both vendors' shapes), for notices. */
export function answerMessage(result: OperationResult): string {
  const b = result.body as { error?: { message?: unknown } | string; message?: unknown } | null;
  if (b && typeof b === 'object') {
    if (typeof b.error === 'string') return b.error;
    if (b.error && typeof b.error.message === 'string') return b.error.message;
    if (typeof b.message === 'string') return b.message;
  }
  return typeof result.body === 'string' ? result.body.slice(0, 300) : '';
}
