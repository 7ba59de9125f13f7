// What the endpoints do once a request has passed the guards: resolve a tool name to a manifest worker, an MCP
// server or web_fetch; run hook chains; talk to the provider worker. The network names things; argv, cwd, roots
// and paths come only from the bridge's own configuration.
import type { WebFetchOptions } from '../net';
import { samePaths, validatePathContext } from './dirs';
import { BridgeError } from './errors';
import { publicManifest, type Manifest } from './manifest';
import type { McpHub } from './mcp-hub';
import type { PathContext, PublicManifest, ToolImage, ToolResult } from './protocol';
import { webFetch, webFetchTool } from './web-fetch';
import type { WorkerPool } from './worker-pool';
import { WorkspaceAuthorizer, WorkspaceIds } from './workspace-cache';
import { UUID } from './workspace-registry';

export interface CoreOptions {
  manifest: Manifest;
  pool: WorkerPool;
  mcp: McpHub | undefined;
  dirs: PathContext;
  roots: string[];
  webFetch: (WebFetchOptions & { enabled: boolean }) | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (at: string, what: string) => new BridgeError('E_BODY_INVALID', `At ${at}: ${what}`);

/** Moves a field out of a request body, so the body no longer keeps it alive during a worker call. */
function take(body: Record<string, unknown>, key: string): unknown {
  const value = body[key];
  delete body[key];
  return value;
}

function onlyKeys(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body))
    if (!allowed.includes(k)) throw invalid(k, `unknown field. Allowed: ${allowed.join(', ')}.`);
}

/**
 * A copy of a string parsed out of a request body that shares nothing with it. V8's JSON.parse returns substrings
 * as slices of the whole body text, so a remembered workspace spelling would keep a 48 MiB body alive for the
 * bridge's life (the authorizer remembers up to 64 spellings).
 */
const detached = (s: string): string => (s.length > 4096 ? s : Buffer.from(s, 'utf8').toString('utf8'));

const MAX_IMAGES = 8;
const MAX_IMAGE_BASE64 = Math.ceil((8 * 1024 * 1024) / 3) * 4;

/** Seed 000 §5: output is a string; images are at most 8 base64 PNG/JPEG/GIF/WebP data URLs of ≤ 8 MiB each. */
export function toToolResult(data: Record<string, unknown>): ToolResult {
  if (typeof data.output !== 'string')
    throw new BridgeError(
      'E_TOOL_RESULT_INVALID',
      'The worker returned a tool result without a string "output". Return {"output": "..."}.',
    );
  if (data.images === undefined) return { output: data.output };
  if (!Array.isArray(data.images) || data.images.length > MAX_IMAGES) {
    throw new BridgeError(
      'E_TOOL_RESULT_INVALID',
      `The worker returned "images" that is not an array of at most ${MAX_IMAGES} images.`,
    );
  }
  const images: ToolImage[] = data.images.map((img, i) => {
    const url = isObject(img) && img.type === 'image_url' && isObject(img.image_url) ? img.image_url.url : undefined;
    const m =
      typeof url === 'string' ? /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})$/.exec(url) : null;
    if (!m || m[2]!.length > MAX_IMAGE_BASE64) {
      throw new BridgeError(
        'E_TOOL_RESULT_INVALID',
        `At images.${i}: expected {"type":"image_url","image_url":{"url":"data:image/png;base64,..."}} of at most 8 MiB.`,
      );
    }
    return { type: 'image_url', image_url: { url: url as string } };
  });
  return { output: data.output, images };
}

export class BridgeCore {
  private readonly workspaces: WorkspaceAuthorizer;
  private readonly ids: WorkspaceIds;

  constructor(private readonly o: CoreOptions) {
    this.workspaces = new WorkspaceAuthorizer(o.roots);
    this.ids = new WorkspaceIds(o.dirs.data_dir);
  }

  get roots(): string[] {
    return this.o.roots;
  }

  manifestView(): PublicManifest {
    const extra = [...(this.o.mcp?.publicTools ?? []), ...(this.o.webFetch?.enabled ? [webFetchTool] : [])];
    return publicManifest(this.o.manifest, extra);
  }

  status(): Record<string, unknown> {
    return {
      name: 'i-bridge',
      protocol: 1,
      pid: process.pid,
      roots: this.o.roots,
      tools: this.manifestView().tools.length,
      hooks: this.o.manifest.hooks.length,
      provider: this.o.manifest.provider !== undefined,
      mcp_servers: this.o.mcp?.serverNames ?? [],
      workers: this.o.pool.workers.length,
    };
  }

  /** Workspace, id and paths for a request; the network may name a root and a UUID, never other paths. */
  private context(body: Record<string, unknown>): { workspace: string; workspace_id: string; paths: PathContext } {
    const workspace = this.workspaces.authorize(
      typeof body.workspace === 'string' ? detached(body.workspace) : (body.workspace ?? this.o.roots[0]),
    );
    if (body.paths !== undefined) {
      if (!isObject(body.paths)) throw invalid('paths', 'expected {config_dir, data_dir, cache_dir, runtime_dir}.');
      // The bridge's own dirs were validated at start: an identical copy needs no file-system checks.
      if (!samePaths(body.paths as unknown as PathContext, this.o.dirs)) {
        validatePathContext(body.paths as unknown as PathContext);
        throw new BridgeError(
          'E_PATHS_FIXED',
          'A request cannot move the bridge directories. Omit "paths" or set I_*_DIR where i-bridge starts.',
        );
      }
    }
    let workspaceId: string;
    if (body.workspace_id !== undefined) {
      if (typeof body.workspace_id !== 'string' || !UUID.test(body.workspace_id))
        throw invalid('workspace_id', 'expected a UUID.');
      workspaceId = body.workspace_id.toLowerCase();
    } else {
      workspaceId = this.ids.idFor(workspace);
    }
    return { workspace, workspace_id: workspaceId, paths: this.o.dirs };
  }

  async callTool(body: Record<string, unknown>): Promise<ToolResult> {
    onlyKeys(body, ['name', 'arguments', 'workspace', 'workspace_id', 'paths']);
    if (typeof body.name !== 'string') throw invalid('name', 'expected the tool name.');
    if (!isObject(body.arguments ?? {})) throw invalid('arguments', 'expected a JSON object.');
    if (body.workspace === undefined)
      throw invalid('workspace', 'expected the workspace path (one of the bridge roots).');
    const name = body.name;
    const entry = this.o.manifest.tools.find((t) => t.tool.name === name);
    const known = entry || (name === 'web_fetch' && this.o.webFetch?.enabled) || this.o.mcp?.has(name);
    if (!known) throw new BridgeError('E_TOOL_UNKNOWN', `No tool named ${name}. GET /v1/manifest lists the tools.`);
    const ctx = this.context(body);
    // The arguments move out of the body and are held by no local of this function: once the worker frame is
    // written nothing keeps them, so a large call does not hold them while its answer is read (memory).
    const args = () => (take(body, 'arguments') ?? {}) as Record<string, unknown>;
    if (entry) {
      const data = await this.o.pool.call(entry, { event: 'tool', ...ctx, data: { name, arguments: args() } });
      return toToolResult(data);
    }
    if (name === 'web_fetch' && this.o.webFetch) return webFetch(args(), this.o.webFetch);
    return this.o.mcp!.call(name, args());
  }

  /** Seed 000 §1: hooks run in manifest order, each receiving the complete data the previous one returned. */
  async runHooks(body: Record<string, unknown>): Promise<{ data: Record<string, unknown> }> {
    onlyKeys(body, ['event', 'data', 'workspace', 'workspace_id', 'paths']);
    if (typeof body.event !== 'string' || !/^[a-z_]{1,64}$/.test(body.event))
      throw invalid('event', 'expected a hook event name.');
    if (!isObject(body.data)) throw invalid('data', 'expected a JSON object.');
    const event = body.event;
    const hooks = this.o.manifest.hooks.filter((h) => h.events.includes(event) || h.events.includes('*'));
    let data = take(body, 'data') as Record<string, unknown>; // the body lets go of it (memory, see callTool)
    if (hooks.length === 0) return { data };
    const ctx = this.context(body);
    for (const hook of hooks) data = await this.o.pool.call(hook, { event, ...ctx, data });
    return { data };
  }

  /** Seed 003 v1: provider_prepare / provider_parse to the configured provider worker. No fallback, no retry. */
  async provider(kind: 'prepare' | 'parse', body: Record<string, unknown>): Promise<{ data: Record<string, unknown> }> {
    onlyKeys(body, ['data', 'workspace', 'workspace_id', 'paths']);
    const provider = this.o.manifest.provider;
    if (!provider)
      throw new BridgeError(
        'E_PROVIDER_MISSING',
        'No provider worker is configured. Add "provider": {"exec": [...]} to the desktop manifest.',
      );
    if (!isObject(body.data) || body.data.version !== 1)
      throw invalid('data.version', 'expected 1 (provider contract v1).');
    if (kind === 'prepare' && typeof body.data.protocol !== 'string')
      throw invalid('data.protocol', 'expected the protocol selector string.');
    const ctx = this.context(body);
    const data = await this.o.pool.call(provider, {
      event: `provider_${kind}`,
      ...ctx,
      data: take(body, 'data') as Record<string, unknown>,
    });
    if (data.version !== 1)
      throw new BridgeError(
        'E_PROVIDER_INVALID',
        'The provider worker answered with a version other than 1. Update the worker.',
      );
    if (kind === 'prepare' && 'operation' in data) {
      // Seed 003 附加操作合约: an operation plan; the core checks it whole and runs it only under provider_operations.
      if (!isObject(data.operation))
        throw new BridgeError(
          'E_PROVIDER_INVALID',
          'The provider worker returned an "operation" that is not an object.',
        );
    } else if (kind === 'prepare') {
      if (typeof data.url !== 'string')
        throw new BridgeError('E_PROVIDER_INVALID', 'The provider worker returned no "url".');
      if (
        data.headers !== undefined &&
        (!isObject(data.headers) || !Object.values(data.headers).every((v) => typeof v === 'string'))
      ) {
        throw new BridgeError(
          'E_PROVIDER_INVALID',
          'The provider worker returned "headers" that are not an object of strings.',
        );
      }
    } else if (!isObject(data.response)) {
      throw new BridgeError('E_PROVIDER_INVALID', 'The provider worker returned no "response" object.');
    }
    return { data };
  }
}
