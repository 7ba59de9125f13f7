// A custom protocol (any selector but the four built-ins) served by the bridge's provider worker (seed 003
// "NDJSON 合约 v1"): `prepare` and `parse` are POST /v1/provider/prepare|parse, and their answers are checked
// strictly here before the core's transport uses them (it then does the same-origin check, the forbidden headers,
// the credential and the retries, replaying the prepared request: prepare never runs twice for one call).
// Non-streaming: the worker is asked for `stream: false` and the adapter has no stream decoder.
// No bridge, a bridge without a provider, or a failing worker is an error: never a fallback to a built-in adapter.
import { HarnessError, toErrorData } from '../contracts';
import type {
  AuthSpec,
  Message,
  OperationPlan,
  ParsedResponse,
  PrepareInput,
  PreparedRequest,
  PrepareStepInput,
  ProviderAdapter,
  ProviderOperation,
} from '../providers';
import type { BridgeClient, BridgeWorkspace } from './client';

export interface BridgeProviderOptions {
  protocol: string;
  /** The bridge to ask, looked up on each call; undefined when none is paired (or running). */
  client: () => Promise<BridgeClient | undefined> | BridgeClient | undefined;
  /** The workspace the worker runs for (one of the bridge's roots); omitted: the bridge's default root. */
  where?: () => BridgeWorkspace | undefined;
  /** Says what to do when no bridge is available (the app: pair one; headless: the config's provider binding). */
  missingHint?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const PREPARED_KEYS = ['version', 'url', 'body', 'headers', 'auth'];
const PARSED_KEYS = ['version', 'response'];

function invalid(protocol: string, step: string, what: string): HarnessError {
  return new HarnessError(
    'E_PROVIDER_INVALID',
    `The provider worker for protocol "${protocol}" returned an invalid ${step} answer: ${what} Fix the worker (seed 003 provider contract v1).`,
    { protocol, step },
  );
}

/** Checks a `provider_prepare` answer: exactly {version: 1, url, body, headers, auth}. */
export function checkPreparedAnswer(data: unknown, protocol: string): PreparedRequest {
  const bad = (what: string) => invalid(protocol, 'prepare', what);
  if (!isObj(data)) throw bad('expected an object.');
  for (const key of Object.keys(data))
    if (!PREPARED_KEYS.includes(key)) throw bad(`unknown field "${key}" (allowed: ${PREPARED_KEYS.join(', ')}).`);
  if (data.version !== 1) throw bad(`version must be 1, not ${JSON.stringify(data.version)}.`);
  if (typeof data.url !== 'string' || !/^https?:\/\//i.test(data.url))
    throw bad('"url" must be an absolute http(s) URL string.');
  if (!isObj(data.body)) throw bad('"body" must be a JSON object.');
  const headers = data.headers === undefined ? {} : data.headers;
  if (!isObj(headers) || !Object.values(headers).every((v) => typeof v === 'string'))
    throw bad('"headers" must be an object of string values.');
  let auth: AuthSpec | null = null;
  if (data.auth !== undefined && data.auth !== null) {
    const a = data.auth;
    if (
      !isObj(a) ||
      typeof a.header !== 'string' ||
      typeof a.prefix !== 'string' ||
      Object.keys(a).some((k) => k !== 'header' && k !== 'prefix')
    ) {
      throw bad('"auth" must be null or {header, prefix} strings.');
    }
    auth = { header: a.header, prefix: a.prefix };
  }
  return { version: 1, url: data.url, body: data.body, headers: headers as Record<string, string>, auth };
}

const PLAN_KEYS = ['version', 'operation', 'state'];
const OPERATION_KEYS = ['method', 'url', 'headers', 'auth', 'content_type', 'body_base64', 'cleanup'];

/**
 * Checks an operation plan answer (seed 003 附加操作合约): {version: 1, operation: {method, url, headers, auth,
 * content_type?, body_base64?, cleanup?}, state}. The raw body travels as base64 over the NDJSON contract.
 */
export function checkOperationPlan(data: Obj, protocol: string): OperationPlan {
  const bad = (what: string) => invalid(protocol, 'prepare', what);
  for (const key of Object.keys(data))
    if (!PLAN_KEYS.includes(key))
      throw bad(`unknown field "${key}" in an operation plan (allowed: ${PLAN_KEYS.join(', ')}).`);
  if (data.version !== 1) throw bad(`version must be 1, not ${JSON.stringify(data.version)}.`);
  const op = data.operation;
  if (!isObj(op)) throw bad('"operation" must be an object.');
  for (const key of Object.keys(op))
    if (!OPERATION_KEYS.includes(key))
      throw bad(`unknown field "operation.${key}" (allowed: ${OPERATION_KEYS.join(', ')}).`);
  if (op.method !== 'GET' && op.method !== 'POST' && op.method !== 'DELETE')
    throw bad('"operation.method" must be GET, POST or DELETE.');
  if (typeof op.url !== 'string') throw bad('"operation.url" must be a string.');
  const headers = op.headers === undefined ? {} : op.headers;
  if (!isObj(headers) || !Object.values(headers).every((v) => typeof v === 'string'))
    throw bad('"operation.headers" must be an object of string values.');
  const a = op.auth;
  if (a !== undefined && a !== null && (!isObj(a) || typeof a.header !== 'string' || typeof a.prefix !== 'string'))
    throw bad('"operation.auth" must be null or {header, prefix} strings.');
  if (op.content_type !== undefined && typeof op.content_type !== 'string')
    throw bad('"operation.content_type" must be a string.');
  if (
    op.body_base64 !== undefined &&
    (typeof op.body_base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(op.body_base64))
  )
    throw bad('"operation.body_base64" must be base64 text.');
  if (op.cleanup !== undefined && typeof op.cleanup !== 'boolean')
    throw bad('"operation.cleanup" must be true or false.');
  const operation: ProviderOperation = {
    method: op.method,
    url: op.url,
    headers: headers as Record<string, string>,
    auth: a ? { header: (a as Obj).header as string, prefix: (a as Obj).prefix as string } : null,
    ...(op.content_type !== undefined ? { content_type: op.content_type } : {}),
    ...(op.body_base64 !== undefined ? { body: Uint8Array.from(atob(op.body_base64), (c) => c.charCodeAt(0)) } : {}),
    ...(op.cleanup !== undefined ? { cleanup: op.cleanup } : {}),
  };
  return { version: 1, operation, state: data.state ?? null };
}

/** Checks a `provider_parse` answer: {version: 1, response: {choices: [{finish_reason, message}], usage?}}. */
export function checkParsedAnswer(data: unknown, protocol: string): ParsedResponse {
  const bad = (what: string) => invalid(protocol, 'parse', what);
  if (!isObj(data)) throw bad('expected an object.');
  for (const key of Object.keys(data))
    if (!PARSED_KEYS.includes(key)) throw bad(`unknown field "${key}" (allowed: ${PARSED_KEYS.join(', ')}).`);
  if (data.version !== 1) throw bad(`version must be 1, not ${JSON.stringify(data.version)}.`);
  const r = data.response;
  if (!isObj(r) || !Array.isArray(r.choices)) throw bad('"response" must be an object with a "choices" array.');
  r.choices.forEach((c: unknown, i) => {
    if (!isObj(c) || typeof c.finish_reason !== 'string' || !isObj(c.message) || c.message.role !== 'assistant') {
      throw bad(`response.choices.${i} must be {finish_reason: string, message: {role: "assistant", ...}}.`);
    }
    const m = c.message;
    if (m.content !== undefined && m.content !== null && typeof m.content !== 'string')
      throw bad(`response.choices.${i}.message.content must be a string or null.`);
    if (m.content === undefined) m.content = null;
    if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls))
      throw bad(`response.choices.${i}.message.tool_calls must be an array.`);
  });
  if (r.usage !== undefined && !isObj(r.usage)) throw bad('"response.usage" must be an object.');
  return data as unknown as ParsedResponse;
}

/**
 * The host's own records on a message (issue 15/16: the whole tool output the log keeps, usage, who approved, the
 * turn id) are never a provider's business: the built-in adapters map fields explicitly, a worker gets the message
 * without them (a whole tool output would also defeat the bounded view and grow every request).
 */
const HOST_RECORDS = ['_full_output', '_usage', '_approval', '_turn', '_outside_undo'] as const;
function withoutHostRecords(m: Message): Message {
  if (!HOST_RECORDS.some((k) => k in m)) return m;
  const out = { ...m } as Record<string, unknown>;
  for (const k of HOST_RECORDS) delete out[k];
  return out as unknown as Message;
}

export function bridgeProviderAdapter(options: BridgeProviderOptions): ProviderAdapter {
  const { protocol } = options;
  async function call(step: 'prepare' | 'parse', data: Obj): Promise<Obj> {
    const client = await options.client();
    if (!client) {
      throw new HarnessError(
        'E_PROVIDER_BRIDGE_MISSING',
        `Protocol "${protocol}" is not built in, so a provider worker behind i-bridge serves it, and no bridge is available. ${options.missingHint ?? 'Start i-bridge with a desktop manifest that has "provider", pair it in Settings → Bridge, or pick a built-in protocol (openai, deepseek, anthropic, responses).'}`,
        { protocol },
      );
    }
    if (!client.provider)
      throw new HarnessError(
        'E_PROVIDER_BRIDGE_MISSING',
        `This bridge client cannot reach a provider worker (protocol "${protocol}").`,
        { protocol },
      );
    const where = options.where?.();
    try {
      return await client.provider(step, data, where);
    } catch (error) {
      const e = toErrorData(error, 'E_PROVIDER_WORKER');
      throw new HarnessError(
        e.code,
        `The provider worker for protocol "${protocol}" failed in ${step} (not retried, no other provider used): ${e.message}`,
        { protocol, step, ...(e.data ?? {}) },
      );
    }
  }
  return {
    protocol,
    async prepare(input: PrepareInput) {
      // Custom providers are called without streaming: the answer is one JSON body for provider_parse.
      const data = await call('prepare', {
        ...input,
        history: input.history.map(withoutHostRecords),
        version: 1,
        protocol,
        stream: false,
      } as unknown as Obj);
      if ('operation' in data) {
        throw new HarnessError(
          'E_PROVIDER_OPERATIONS_OFF',
          `The provider worker for protocol "${protocol}" asked for an extra operation, which the model config does not allow. Set "provider_operations": true in it to let the core run the worker's operations.`,
          { protocol, key: 'provider_operations' },
        );
      }
      return checkPreparedAnswer(data, protocol);
    },
    // Under provider_operations (provider-files withOperationPlans): the answer may be an operation plan; the result
    // of the operation and the plan's state go back with the next call. Bodies cross the contract as base64.
    async prepareStep(input: PrepareStepInput) {
      const { operation_result: result, state, ...rest } = input;
      const data = await call('prepare', {
        ...rest,
        history: rest.history.map(withoutHostRecords),
        version: 1,
        protocol,
        stream: false,
        ...(result ? { operation_result: result, state: state ?? null } : {}),
      } as unknown as Obj);
      return 'operation' in data ? checkOperationPlan(data, protocol) : checkPreparedAnswer(data, protocol);
    },
    async parse(raw: unknown) {
      const data = await call('parse', { version: 1, protocol, response: raw });
      return checkParsedAnswer(data, protocol);
    },
  };
}
