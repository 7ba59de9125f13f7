// Hosts the MCP stdio servers named in bridge.json and exposes their tools as `mcp__<server>__<tool>` through the
// same endpoints as manifest tools. Servers start with the bridge (their tool lists feed GET /v1/manifest). Each
// runs like an NDJSON worker (mcp-stdio-transport.ts): its own process group, killed as a whole, and exactly the
// scrubbed worker environment (nothing of the SDK's default HOME/LOGNAME/SHELL/TERM/USER beyond what seed 000 §2
// allows); frames are capped at 48 MiB; every call has the 15 s deadline. A server that dies is restarted on the
// next explicit call, never to replay a failed one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { boundedText } from '../net';
import type { McpServerConfig } from './bridge-config';
import { BridgeError } from './errors';
import { KILL_GRACE_MS } from './limits';
import { TOOL_NAME } from './manifest';
import { McpStdioTransport } from './mcp-stdio-transport';
import type { PublicTool, ToolImage, ToolResult } from './protocol';
import { resolveCwd, resolveExec, type ExecSource } from './resolve-exec';
import type { GroupSink } from './worker-pool';

interface Server {
  name: string;
  /** argv and cwd resolved once at start, like manifest entries. */
  argv: string[];
  cwd: string;
  client: Client | undefined;
  transport: McpStdioTransport | undefined;
}

interface McpTool {
  server: Server;
  remoteName: string;
  tool: PublicTool;
}

export interface McpHubOptions {
  env: Record<string, string>;
  callTimeoutMs: number;
  maxFrameBytes: number;
  killGraceMs?: number;
  groups?: GroupSink;
  log?: (line: string) => void;
}

const VERSION = '0.1.0';
/** Errors in a server's command or cwd are bridge.json errors (exit 2 at start), named by their path there. */
const SETTINGS_COMMAND: ExecSource = { code: 'E_CONFIG_INVALID', field: 'command' };

export class McpHub {
  private readonly servers: Server[] = [];
  private readonly tools = new Map<string, McpTool>();
  private closed = false;

  constructor(private readonly options: McpHubOptions) {}

  get publicTools(): PublicTool[] {
    return [...this.tools.values()].map((t) => t.tool);
  }

  get serverNames(): string[] {
    return this.servers.map((s) => s.name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Starts every configured server and lists its tools. A server that cannot start stops the bridge start. */
  async start(configs: Record<string, McpServerConfig>): Promise<void> {
    for (const [name, config] of Object.entries(configs)) {
      const at = `mcp_servers.${name}`;
      const cwd = resolveCwd(config.cwd, config.cwd, at, SETTINGS_COMMAND);
      const { argv } = resolveExec(config.command, cwd, at, SETTINGS_COMMAND);
      const server: Server = { name, argv, cwd, client: undefined, transport: undefined };
      this.servers.push(server);
      const client = await this.connect(server);
      const listed = await client.listTools(undefined, { timeout: this.options.callTimeoutMs });
      for (const t of listed.tools) {
        const publicName = `mcp__${name}__${t.name}`;
        if (!TOOL_NAME.test(publicName) || this.tools.has(publicName)) {
          this.options.log?.(
            `mcp: skipping tool "${t.name}" of ${name}: its public name ${publicName} is invalid or taken.`,
          );
          continue;
        }
        const parameters =
          t.inputSchema && t.inputSchema.type === 'object'
            ? (t.inputSchema as Record<string, unknown>)
            : { type: 'object', properties: {} };
        this.tools.set(publicName, {
          server,
          remoteName: t.name,
          tool: { name: publicName, description: t.description ?? '', parameters },
        });
      }
    }
  }

  private async connect(server: Server): Promise<Client> {
    if (server.client) return server.client;
    // After close() nothing starts again: a call that raced the shutdown must not leave a fresh server running.
    if (this.closed) throw new BridgeError('E_BRIDGE_CLOSED', 'The bridge is shutting down. Start it again.');
    const transport = new McpStdioTransport({
      argv: server.argv,
      cwd: server.cwd,
      env: this.options.env,
      maxBufferSize: this.options.maxFrameBytes,
      killGraceMs: this.options.killGraceMs ?? KILL_GRACE_MS,
      groups: this.options.groups,
    });
    const client = new Client({ name: 'i-bridge', version: VERSION });
    transport.onclose = () => {
      if (server.transport === transport) {
        server.client = undefined;
        server.transport = undefined;
      }
    };
    // Known to close() while it connects: a bridge stopped during a slow server start stops that server too.
    server.transport = transport;
    try {
      await client.connect(transport, { timeout: this.options.callTimeoutMs });
    } catch (error) {
      await transport.close().catch(() => undefined);
      if (server.transport === transport) server.transport = undefined;
      // "Connection closed" alone does not say why: the server's exit status and last stderr lines usually do.
      const why = transport.diagnostics();
      throw new BridgeError(
        'E_MCP_UNAVAILABLE',
        `The MCP server "${server.name}" did not start (${boundedText(String((error as Error).message), 1000)}${why ? `; ${boundedText(why, 2000)}` : ''}). Check mcp_servers.${server.name} in bridge.json.`,
        { server: server.name },
      );
    }
    server.client = client;
    return client;
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const entry = this.tools.get(name);
    if (!entry) throw new BridgeError('E_TOOL_UNKNOWN', `No tool named ${name}. GET /v1/manifest lists the tools.`);
    const client = await this.connect(entry.server);
    const transport = entry.server.transport;
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await client.callTool({ name: entry.remoteName, arguments: args }, undefined, {
        timeout: this.options.callTimeoutMs,
      });
    } catch (error) {
      // The transport stopped the server over an oversized or malformed message: that is the news, not "Connection closed".
      if (transport?.failure) throw transport.failure;
      const timedOut = /timed out|timeout/i.test((error as Error).message);
      if (timedOut) {
        // The server may still be working on it; drop the connection so the next call starts clean.
        await entry.server.transport?.close().catch(() => undefined);
      }
      // The message is the server's own words (a JSON-RPC error): quoted short, with its controls visible.
      throw new BridgeError(
        timedOut ? 'E_MCP_TIMEOUT' : 'E_MCP_CALL_FAILED',
        `The MCP tool ${name} failed (${boundedText(String((error as Error).message), 2000)}). It is not retried.`,
      );
    }
    const texts: string[] = [];
    const images: ToolImage[] = [];
    for (const part of (result.content ?? []) as { type: string; text?: string; data?: string; mimeType?: string }[]) {
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (
        part.type === 'image' &&
        typeof part.data === 'string' &&
        /^image\/(png|jpeg|gif|webp)$/.test(part.mimeType ?? '')
      ) {
        images.push({ type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } });
      }
    }
    if (result.isError)
      throw new BridgeError(
        'E_MCP_TOOL_ERROR',
        texts.join('\n').slice(0, 4000) || `The MCP tool ${name} reported an error.`,
      );
    return images.length ? { output: texts.join('\n'), images } : { output: texts.join('\n') };
  }

  /** Process ids of running servers (for shutdown checks). */
  get pids(): number[] {
    return this.servers.map((s) => s.transport?.pid).filter((p): p is number => typeof p === 'number');
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.servers.map((s) => s.transport?.close().catch(() => undefined)));
  }

  killAllNow(): void {
    for (const s of this.servers) s.transport?.killNow();
  }
}
