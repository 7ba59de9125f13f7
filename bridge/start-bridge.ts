// Assembles and starts a bridge: settings, manifest, pool, MCP servers, the HTTP server on 127.0.0.1 and ::1
// (same port; a host without IPv6 is tolerated), and `<runtime_dir>/bridge.json` (0600) for local tools.
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Pairing, TokenStore } from './auth';
import { loadBridgeSettings, normaliseOrigin, parseBridgeSettings, type McpServerConfig } from './bridge-config';
import { BridgeCore } from './bridge-core';
import { canonicalRoot, resolveDirs } from './dirs';
import { BridgeError } from './errors';
import { createHandler } from './http-server';
import { CALL_TIMEOUT_MS, MAX_FRAME_BYTES } from './limits';
import { emptyManifest, loadManifest } from './manifest';
import { McpHub } from './mcp-hub';
import { GroupRecord, reapLeftoverGroups } from './process-groups';
import type { BridgeFile, PathContext } from './protocol';
import { workerEnv } from './worker-env';
import { WorkerPool } from './worker-pool';

export interface BridgeOptions {
  /** 0 picks a free port. */
  port: number;
  roots: string[];
  allowOrigins?: string[];
  manifestPath?: string;
  /** Overrides I_CONFIG_DIR. */
  configDir?: string;
  /** Read neither <config_dir>/bridge.json nor the default <config_dir>/desktop.json: only these options count. */
  noSettings?: boolean;
  /** The environment dirs are read from and the worker env is scrubbed from (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  dirs?: Partial<PathContext>;
  proxyOrigins?: string[];
  webFetch?: { enabled: boolean; allowPrivate: boolean };
  mcpServers?: Record<string, McpServerConfig>;
  /** Test knobs; the defaults are the seed's limits. */
  callTimeoutMs?: number;
  killGraceMs?: number;
  maxFrameBytes?: number;
  maxBodyBytes?: number;
  ioLimitBytes?: number;
  webTimeoutMs?: number;
  writeBridgeFile?: boolean;
  log?: (line: string) => void;
}

export interface RunningBridge {
  url: string;
  port: number;
  /** The local token (also in bridge.json). */
  token: string;
  pairingCode: string;
  bridgeFile: string | undefined;
  pool: WorkerPool;
  mcp: McpHub;
  core: BridgeCore;
  close: () => Promise<void>;
  /** Synchronous last resort for process exit: SIGKILL every worker group, remove bridge.json. */
  killNow: () => void;
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
const closeServer = (server: Server) => new Promise<void>((resolve) => {
  server.close(() => resolve());
  server.closeAllConnections();
});

const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EINVAL']);
/** A paired app makes a call now and then: keep its loopback connection open between calls (Node's default is 5 s). */
const KEEP_ALIVE_MS = 30_000;

function createHttpServer(handler: Parameters<typeof createServer>[1]): Server {
  const server = createServer({ noDelay: true, keepAlive: true }, handler);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  return server;
}

async function listenBoth(handler: Parameters<typeof createServer>[1], port: number): Promise<{ servers: Server[]; port: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v4 = createHttpServer(handler);
    const actual = await listen(v4, port, '127.0.0.1');
    const v6 = createHttpServer(handler);
    try {
      await listen(v6, actual, '::1');
      return { servers: [v4, v6], port: actual };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_IPV6.has(code)) return { servers: [v4], port: actual };
      await closeServer(v4);
      if (code !== 'EADDRINUSE' || port !== 0) {
        throw new BridgeError('E_PORT_IN_USE', `Port ${actual} is taken on ::1 (${code}). Pick another with --port.`);
      }
    }
  }
  throw new BridgeError('E_PORT_IN_USE', 'Could not find a port free on both 127.0.0.1 and ::1. Pass --port.');
}

function writeBridgeFile(runtimeDir: string, content: BridgeFile): string {
  mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
  const file = join(runtimeDir, 'bridge.json');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(content)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // whatever the umask
  renameSync(tmp, file);
  return file;
}

function removeBridgeFile(file: string | undefined): void {
  if (!file || !existsSync(file)) return;
  try {
    const content = JSON.parse(readFileSync(file, 'utf8')) as BridgeFile;
    if (content.pid === process.pid) unlinkSync(file); // another bridge may have replaced it since
  } catch {
    // unreadable: leave it
  }
}

export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const env = options.env ?? process.env;
  const dirs = resolveDirs(env, { ...options.dirs, ...(options.configDir ? { config_dir: options.configDir } : {}) });
  const settings = options.noSettings ? parseBridgeSettings({}, dirs.config_dir) : loadBridgeSettings(dirs.config_dir);
  // Workers left behind by a bridge that was SIGKILLed die before this one starts its own.
  const groupsDir = join(dirs.runtime_dir, 'groups');
  reapLeftoverGroups(groupsDir, options.log);
  const groups = new GroupRecord(groupsDir, options.log);
  const roots = [...new Set((options.roots.length ? options.roots : [process.cwd()]).map(canonicalRoot))];
  const allowOrigins = [...new Set([...settings.allowOrigins, ...(options.allowOrigins ?? []).map((o, i) => normaliseOrigin(o, `--allow-origin ${i + 1}`))])];
  const defaultManifest = join(dirs.config_dir, 'desktop.json');
  const manifestPath = options.manifestPath ?? settings.manifest ?? (!options.noSettings && existsSync(defaultManifest) ? defaultManifest : undefined);
  const manifest = manifestPath ? loadManifest(manifestPath) : emptyManifest();
  const callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const pool = new WorkerPool({
    dirs, sourceEnv: env, callTimeoutMs, maxFrameBytes, groups,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...((options.ioLimitBytes ?? settings.ioLimitBytes) !== undefined ? { ioLimitBytes: options.ioLimitBytes ?? settings.ioLimitBytes } : {}),
  });
  const mcp = new McpHub({
    env: workerEnv(dirs, env), callTimeoutMs, maxFrameBytes, groups,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    await mcp.start({ ...settings.mcpServers, ...options.mcpServers });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const webFetch = options.webFetch ?? settings.webFetch;
  const core = new BridgeCore({
    manifest, pool, mcp, dirs, roots,
    webFetch: { ...webFetch, ...(options.webTimeoutMs !== undefined ? { timeoutMs: options.webTimeoutMs } : {}) },
  });
  const tokens = new TokenStore();
  const token = tokens.issue();
  const pairing = new Pairing(tokens);
  let port = 0;
  const handler = createHandler({
    core, tokens, pairing, allowOrigins,
    proxyOrigins: [...new Set([...settings.proxyOrigins, ...(options.proxyOrigins ?? [])])],
    maxBodyBytes: options.maxBodyBytes ?? MAX_FRAME_BYTES,
    port: () => port,
    ...(options.log ? { log: options.log } : {}),
  });
  let listening: { servers: Server[]; port: number };
  try {
    listening = await listenBoth(handler, options.port);
  } catch (error) {
    await mcp.close();
    throw error;
  }
  port = listening.port;
  const url = `http://127.0.0.1:${port}`;
  const bridgeFile = options.writeBridgeFile === false ? undefined : writeBridgeFile(dirs.runtime_dir, { url, token, pid: process.pid });
  let closed = false;
  return {
    url, port, token, pairingCode: pairing.code, bridgeFile, pool, mcp, core,
    close: async () => {
      if (closed) return;
      closed = true;
      removeBridgeFile(bridgeFile);
      pool.close();
      // Each group leaves the record once it has been sent SIGKILL; the record file goes with the last one.
      await Promise.all([...listening.servers.map(closeServer), mcp.close()]);
    },
    killNow: () => {
      closed = true;
      removeBridgeFile(bridgeFile);
      pool.killAllNow();
      mcp.killAllNow();
      groups.clear();
    },
  };
}
