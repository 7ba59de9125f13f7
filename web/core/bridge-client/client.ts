// The app's client of i-bridge's HTTP API (bridge/README.md): pairing, status, manifest, tool calls and hook runs.
// JSON only, Bearer token on every endpoint but pairing. The bridge's refusals `{error:{code,message}}` become
// HarnessErrors with the same code; a network failure becomes E_BRIDGE_UNREACHABLE with what to check, because
// from a page all of "not running", "origin not allowed" and "blocked by Local Network Access" look alike.
import { HarnessError } from '../contracts';

export interface BridgeTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface BridgeManifest {
  tools: BridgeTool[];
  hooks: { events: string[] }[];
  provider: boolean;
}

export interface BridgeStatus {
  name: string;
  protocol: number;
  pid: number;
  roots: string[];
  tools: number;
  hooks: number;
  provider: boolean;
  mcp_servers: string[];
  workers: number;
}

export interface BridgeCallResult {
  output: string;
  images?: { type: 'image_url'; image_url: { url: string } }[];
}

/** Where a call runs: one of the bridge's roots, and the app's workspace UUID. */
export interface BridgeWorkspace {
  workspace: string;
  workspaceId?: string;
}

export interface BridgeClient {
  readonly url: string;
  pair(code: string): Promise<string>;
  status(signal?: AbortSignal): Promise<BridgeStatus>;
  manifest(signal?: AbortSignal): Promise<BridgeManifest>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    where: BridgeWorkspace,
    signal?: AbortSignal,
  ): Promise<BridgeCallResult>;
  runHooks(
    event: string,
    data: Record<string, unknown>,
    where?: BridgeWorkspace,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** Seed 003 v1 to the bridge's provider worker (`/v1/provider/prepare|parse`); the answer's `data`, unchecked. */
  provider?(
    step: 'prepare' | 'parse',
    data: Record<string, unknown>,
    where?: BridgeWorkspace,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>>;
}

export interface BridgeClientOptions {
  url: string;
  token?: string;
  fetch?: typeof fetch;
  /** The page's origin, named in the unreachable message (what --allow-origin must list). */
  origin?: string;
}

/** Status and manifest answer at once; a tool call may take the bridge's 15 s deadline plus start-up. */
const QUICK_MS = 8_000;
const CALL_MS = 30_000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `http://127.0.0.1:7331/` → `http://127.0.0.1:7331`; anything but a loopback http URL is refused. */
export function normalizeBridgeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new HarnessError(
      'E_BRIDGE_URL',
      `"${raw.slice(0, 100)}" is not a URL. Paste the address i-bridge printed, like http://127.0.0.1:7331.`,
    );
  }
  if (
    url.protocol !== 'http:' ||
    !LOOPBACK.has(url.hostname) ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.username
  ) {
    throw new HarnessError(
      'E_BRIDGE_URL',
      'The bridge listens on this computer only: use the http://127.0.0.1:PORT address i-bridge printed.',
    );
  }
  return url.origin;
}

export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  const url = normalizeBridgeUrl(options.url);
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const origin = options.origin ?? globalThis.location?.origin;

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    auth: boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T> {
    if (auth && !options.token)
      throw new HarnessError(
        'E_BRIDGE_NOT_PAIRED',
        'The bridge is not paired yet. Enter the pairing code i-bridge printed in Settings → Bridge.',
      );
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth) headers.authorization = `Bearer ${options.token}`;
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    let response: Response;
    try {
      response = await doFetch(`${url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.any(signals),
        credentials: 'omit',
        redirect: 'error',
      });
    } catch (error) {
      if (signal?.aborted) throw new HarnessError('E_BRIDGE_CANCELLED', 'The bridge request was cancelled.');
      const reason = error instanceof Error ? error.message : String(error);
      throw new HarnessError(
        'E_BRIDGE_UNREACHABLE',
        `The bridge at ${url} did not answer. Check that i-bridge is running, that it was started with --allow-origin ${origin ?? '<this app’s origin>'} (otherwise the browser blocks the answer as CORS), and that Chrome's "access other apps and services on this device" (Local Network Access) prompt was allowed for this site.`,
        { url, reason },
      );
    }
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      throw new HarnessError(
        'E_BRIDGE_BAD_ANSWER',
        `The server at ${url} answered ${response.status} without JSON. Is this the i-bridge address?`,
        { status: response.status },
      );
    }
    if (!response.ok) {
      const err = (parsed as { error?: { code?: unknown; message?: unknown; data?: unknown } } | null)?.error;
      const code = typeof err?.code === 'string' && /^E_[A-Z0-9_]+$/.test(err.code) ? err.code : 'E_BRIDGE_FAILED';
      const message = typeof err?.message === 'string' ? err.message : `The bridge answered ${response.status}.`;
      if (response.status === 401 && path !== '/v1/pair') {
        throw new HarnessError(
          'E_BRIDGE_UNAUTHORIZED',
          `${message} The bridge does not know this app's token (a restarted bridge forgets it): pair again with the new code.`,
          { status: 401 },
        );
      }
      throw new HarnessError(code, message, { status: response.status });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new HarnessError(
        'E_BRIDGE_BAD_ANSWER',
        `The bridge answered ${path} with something other than a JSON object.`,
      );
    }
    return parsed as T;
  }

  return {
    url,
    async pair(code) {
      const answer = await request<{ token?: unknown }>(
        'POST',
        '/v1/pair',
        { code: code.trim().toUpperCase() },
        false,
        QUICK_MS,
      );
      if (typeof answer.token !== 'string' || answer.token.length === 0)
        throw new HarnessError('E_BRIDGE_BAD_ANSWER', 'The bridge answered pairing without a token.');
      return answer.token;
    },
    status: (signal) => request<BridgeStatus>('GET', '/v1/status', undefined, true, QUICK_MS, signal),
    async manifest(signal) {
      const m = await request<Partial<BridgeManifest>>('GET', '/v1/manifest', undefined, true, QUICK_MS, signal);
      return {
        tools: Array.isArray(m.tools) ? m.tools : [],
        hooks: Array.isArray(m.hooks) ? m.hooks : [],
        provider: m.provider === true,
      };
    },
    async callTool(name, args, where, signal) {
      const body = {
        name,
        arguments: args,
        workspace: where.workspace,
        ...(where.workspaceId ? { workspace_id: where.workspaceId } : {}),
      };
      const r = await request<Partial<BridgeCallResult>>('POST', '/v1/tools/call', body, true, CALL_MS, signal);
      if (typeof r.output !== 'string')
        throw new HarnessError('E_BRIDGE_BAD_ANSWER', `The bridge answered ${name} without an "output" string.`);
      return { output: r.output, ...(Array.isArray(r.images) ? { images: r.images } : {}) };
    },
    async runHooks(event, data, where, signal) {
      const body = {
        event,
        data,
        ...(where
          ? { workspace: where.workspace, ...(where.workspaceId ? { workspace_id: where.workspaceId } : {}) }
          : {}),
      };
      const r = await request<{ data?: unknown }>('POST', '/v1/hooks/run', body, true, CALL_MS, signal);
      if (typeof r.data !== 'object' || r.data === null || Array.isArray(r.data))
        throw new HarnessError(
          'E_BRIDGE_BAD_ANSWER',
          `The bridge answered the ${event} hooks without a "data" object.`,
        );
      return r.data as Record<string, unknown>;
    },
    async provider(step, data, where, signal) {
      const body = {
        data,
        ...(where
          ? { workspace: where.workspace, ...(where.workspaceId ? { workspace_id: where.workspaceId } : {}) }
          : {}),
      };
      const r = await request<{ data?: unknown }>('POST', `/v1/provider/${step}`, body, true, CALL_MS, signal);
      if (typeof r.data !== 'object' || r.data === null || Array.isArray(r.data))
        throw new HarnessError('E_BRIDGE_BAD_ANSWER', `The bridge answered provider ${step} without a "data" object.`);
      return r.data as Record<string, unknown>;
    },
  };
}
