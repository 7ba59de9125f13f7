// Assembles and starts a bridge: settings, manifest, pool, MCP servers, the HTTP server on 127.0.0.1 and ::1
// (same port; a host without IPv6 is tolerated), and `<runtime_dir>/bridge.json` (0600) for local tools.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Pairing, TokenStore } from './auth';
import { refuseIfRunning, removeBridgeFile, writeBridgeFile } from './bridge-file';
import { loadBridgeSettings, normaliseOrigin, parseBridgeSettings, type McpServerConfig } from './bridge-config';
import { BridgeCore } from './bridge-core';
import { canonicalRoot, resolveDirs } from './dirs';
import { BridgeError } from './errors';
import { createHandler } from './http-server';
import { CALL_TIMEOUT_MS, KILL_GRACE_MS, MAX_FRAME_BYTES } from './limits';
import {
  closeServer,
  DEFAULT_SERVER_LIMITS,
  drainServer,
  listenBoth,
  SHUTDOWN_DRAIN_MS,
  type Listening,
  type ServerLimits,
} from './listen';
import { emptyManifest, loadManifest, MANIFEST_OPTION } from './manifest';
import { McpHub } from './mcp-hub';
import { GroupRecord, reapLeftoverGroups } from './process-groups';
import { preparePrivateDir } from './runtime-dir';
import { StartLock } from './start-lock';
import type { PathContext } from './protocol';
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
  /** Pre-authentication bounds (limits.ts); tests pass short ones. */
  serverLimits?: Partial<ServerLimits>;
  /** Aborting it while the bridge starts (SIGINT during a slow MCP server start) stops what was started. */
  signal?: AbortSignal;
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

const isFolder = (dir: string): boolean => {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};

export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const env = options.env ?? process.env;
  const dirs = resolveDirs(env, { ...options.dirs, ...(options.configDir ? { config_dir: options.configDir } : {}) });
  if (options.configDir !== undefined && !isFolder(dirs.config_dir)) {
    // A folder named on purpose that is not there is a typo, not a first run: its settings would be silently missing.
    throw new BridgeError(
      'E_CONFIG_DIR_MISSING',
      `The config folder ${dirs.config_dir} (--config-dir) does not exist. Fix the path, or create the folder first.`,
    );
  }
  const settings = options.noSettings ? parseBridgeSettings({}, dirs.config_dir) : loadBridgeSettings(dirs.config_dir);
  // The folder whose files a later start acts on (bridge.json, the lock, group records) must be private, like
  // XDG_RUNTIME_DIR: created 0700, refused when another user owns it or others may enter it.
  preparePrivateDir(dirs.runtime_dir);
  const groupsDir = join(dirs.runtime_dir, 'groups');
  preparePrivateDir(groupsDir);
  if (options.writeBridgeFile !== false) await refuseIfRunning(dirs.runtime_dir);
  const lock = options.writeBridgeFile !== false ? StartLock.acquire(dirs.runtime_dir) : undefined;
  try {
    return await startLocked(options, env, dirs, settings, groupsDir, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startLocked(
  options: BridgeOptions,
  env: NodeJS.ProcessEnv,
  dirs: PathContext,
  settings: ReturnType<typeof parseBridgeSettings>,
  groupsDir: string,
  lock: StartLock | undefined,
): Promise<RunningBridge> {
  // Workers left behind by a bridge that was SIGKILLed die before this one starts its own.
  reapLeftoverGroups(groupsDir, options.log);
  const groups = new GroupRecord(groupsDir, options.log);
  const roots = [...new Set((options.roots.length ? options.roots : [process.cwd()]).map(canonicalRoot))];
  const allowOrigins = [
    ...new Set([
      ...settings.allowOrigins,
      ...(options.allowOrigins ?? []).map((o, i) => normaliseOrigin(o, `--allow-origin ${i + 1}`)),
    ]),
  ];
  const defaultManifest = join(dirs.config_dir, 'desktop.json');
  const manifestPath =
    options.manifestPath ??
    settings.manifest ??
    (!options.noSettings && existsSync(defaultManifest) ? defaultManifest : undefined);
  const manifestSource = options.manifestPath
    ? MANIFEST_OPTION
    : settings.manifest
      ? `"manifest" in ${join(dirs.config_dir, 'bridge.json')}`
      : 'that file (read by default when it exists), or pass --manifest';
  const manifest = manifestPath ? loadManifest(manifestPath, manifestSource) : emptyManifest();
  const callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  const maxFrameBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  const pool = new WorkerPool({
    dirs,
    sourceEnv: env,
    callTimeoutMs,
    maxFrameBytes,
    groups,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...((options.ioLimitBytes ?? settings.ioLimitBytes) !== undefined
      ? { ioLimitBytes: options.ioLimitBytes ?? settings.ioLimitBytes }
      : {}),
  });
  const mcp = new McpHub({
    env: workerEnv(dirs, env),
    callTimeoutMs,
    maxFrameBytes,
    groups,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const webFetch = options.webFetch ?? settings.webFetch;
  const core = new BridgeCore({
    manifest,
    pool,
    mcp,
    dirs,
    roots,
    webFetch: { ...webFetch, ...(options.webTimeoutMs !== undefined ? { timeoutMs: options.webTimeoutMs } : {}) },
  });
  const tokens = new TokenStore();
  const token = tokens.issue();
  const pairing = new Pairing(tokens);
  let port = 0;
  let closed = false;
  const handler = createHandler({
    core,
    tokens,
    pairing,
    allowOrigins,
    proxyOrigins: [...new Set([...settings.proxyOrigins, ...(options.proxyOrigins ?? [])])],
    maxBodyBytes: options.maxBodyBytes ?? MAX_FRAME_BYTES,
    port: () => port,
    closing: () => closed,
    authenticated: (socket) => {
      for (const limit of listening?.limits ?? []) limit.authenticated(socket);
    },
    ...(options.log ? { log: options.log } : {}),
  });
  // From here on processes and sockets exist: any failure, or a stop request, takes them all down again.
  const signal = options.signal;
  const stopStarting = () => void mcp.close();
  signal?.addEventListener('abort', stopStarting, { once: true });
  const checkStop = () => {
    if (signal?.aborted)
      throw new BridgeError(
        'E_INTERRUPTED',
        'i-bridge was stopped while it was starting; everything it had started was stopped too. Start it again.',
      );
  };
  let listening: Listening | undefined;
  let bridgeFile: string | undefined;
  try {
    checkStop();
    await mcp.start({ ...settings.mcpServers, ...options.mcpServers });
    checkStop();
    listening = await listenBoth(
      handler,
      options.port,
      { ...DEFAULT_SERVER_LIMITS, ...options.serverLimits },
      options.log,
    );
    checkStop();
    port = listening.port;
    // Two starts that raced for a stale lock: only the one that still holds it serves.
    if (lock && !lock.held())
      throw new BridgeError(
        'E_BRIDGE_RUNNING',
        `Another i-bridge started with the runtime folder ${dirs.runtime_dir} at the same moment and holds it. Use that one, or give this one its own I_RUNTIME_DIR.`,
        { runtime_dir: dirs.runtime_dir },
      );
    if (options.writeBridgeFile !== false)
      bridgeFile = writeBridgeFile(dirs.runtime_dir, { url: `http://127.0.0.1:${port}`, token, pid: process.pid });
  } catch (error) {
    pool.close();
    await Promise.all([...(listening?.servers ?? []).map(closeServer), mcp.close()]);
    // The caller may exit right away: wait until each server group got its SIGKILL (and left the record).
    if (mcp.serverNames.length) await new Promise((r) => setTimeout(r, (options.killGraceMs ?? KILL_GRACE_MS) + 50));
    checkStop(); // a stop request, not the failure it caused (a server start cut short), is the news
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopStarting);
  }
  const servers = listening.servers;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    token,
    pairingCode: pairing.code,
    bridgeFile,
    pool,
    mcp,
    core,
    close: async () => {
      if (closed) return;
      closed = true;
      removeBridgeFile(bridgeFile);
      lock?.release();
      // Calls in flight fail now with E_BRIDGE_CLOSED; the drain lets those answers reach their callers.
      pool.close();
      // Each group leaves the record once it has been sent SIGKILL; the record file goes with the last one.
      await Promise.all([...servers.map((server) => drainServer(server, SHUTDOWN_DRAIN_MS)), mcp.close()]);
    },
    killNow: () => {
      closed = true;
      removeBridgeFile(bridgeFile);
      lock?.release();
      pool.killAllNow();
      mcp.killAllNow();
      groups.clear();
    },
  };
}
