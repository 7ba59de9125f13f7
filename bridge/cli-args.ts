// Argument parsing for `i-bridge`, kept apart from the entry so it is testable without starting anything.
import { BridgeError } from './errors';
import { DEFAULT_IO_LIMIT_BYTES, DEFAULT_PORT, MAX_IO_LIMIT_BYTES, MIN_IO_LIMIT_BYTES } from './limits';

export interface CliArgs {
  help: boolean;
  port: number;
  manifest: string | undefined;
  allowOrigins: string[];
  roots: string[];
  configDir: string | undefined;
  /** Overrides io_limit_bytes of bridge.json. */
  ioLimitBytes: number | undefined;
  /** Read no settings file: neither <config_dir>/bridge.json nor the default desktop.json. */
  noSettings: boolean;
  /** Stop (killing every worker) when stdin reaches EOF. */
  exitWithStdin: boolean;
}

export const USAGE = `Usage: i-bridge [--port N] [--manifest FILE] [--allow-origin ORIGIN]... [--root DIR]... [--config-dir DIR]
                [--io-limit-bytes N] [--no-settings] [--exit-with-stdin]

Runs native NDJSON workers, MCP stdio servers, a provider proxy and web_fetch for the i web app, on loopback only.

Options:
  --port N               Port on 127.0.0.1 and ::1 (default ${DEFAULT_PORT}; 0 picks a free port).
  --manifest FILE        Desktop manifest of tools, hooks and provider (default: <config_dir>/desktop.json if present,
                         or "manifest" in <config_dir>/bridge.json).
  --allow-origin ORIGIN  Exact web origin allowed to call the bridge, e.g. https://i.example (repeatable; adds to
                         allow_origins in bridge.json). Requests with any other Origin are refused.
  --root DIR             A folder a call may name as its workspace (repeatable; default: the current folder).
  --config-dir DIR       Config folder (default: $I_CONFIG_DIR or ~/.i/config); bridge settings are read from
                         <config_dir>/bridge.json.
  --io-limit-bytes N     Stderr bytes kept per worker for diagnostics; the rest is drained and dropped
                         (${MIN_IO_LIMIT_BYTES}–${MAX_IO_LIMIT_BYTES}; default io_limit_bytes in bridge.json, else ${DEFAULT_IO_LIMIT_BYTES}).
  --no-settings          Read no settings file: neither <config_dir>/bridge.json (its origins, proxy origins,
                         web_fetch, MCP servers, io limit, manifest) nor the default <config_dir>/desktop.json.
                         Only the command line counts (web_fetch keeps its defaults).
  --exit-with-stdin      Stop cleanly, killing every worker group, when stdin reaches end of file. For a parent
                         that spawns i-bridge with a pipe as stdin: if the parent dies, even by SIGKILL, the pipe
                         closes and the bridge goes with it (headless i starts its private bridge this way).
  -h, --help             Show this help.

On start it prints its URL and a one-time pairing code (single use, 10 minutes, 5 attempts) and writes
{url, token, pid} to <runtime_dir>/bridge.json (mode 0600; runtime dir from $I_RUNTIME_DIR or ~/.i/runtime),
removed on exit. Tokens live in memory only: after a restart, pair the app again with the new code (local
tools re-read bridge.json). Other directories: $I_DATA_DIR (workspace registry), $I_CACHE_DIR.

If it cannot start (bad option, settings or manifest, port taken, another bridge on the same runtime dir) it
prints "error E_CODE: what to do" and exits with status 2, leaving nothing running. SIGINT/SIGTERM/SIGHUP stop
it cleanly: calls in flight get 503 E_BRIDGE_CLOSED and every worker group is killed.

Workers must exit when their stdin closes: if i-bridge is SIGKILLed that is the only signal they get. As a
best-effort guard, worker process groups are recorded in <runtime_dir>/groups/ and the next start kills the
groups of a bridge that is no longer running (Linux only, and only groups whose start times match the record).

HTTP API (JSON only; every endpoint but /v1/pair needs "Authorization: Bearer <token>"):
  POST /v1/pair {code}                          -> {token}
  GET  /v1/status                               -> roots, tool and worker counts
  GET  /v1/manifest                             -> public tool schemas and hook events (never exec or cwd)
  POST /v1/tools/call {name, arguments, workspace, workspace_id?}   -> {output, images?} | {error}
  POST /v1/hooks/run {event, data, workspace?}  -> {data}
  POST /v1/provider/prepare|parse {data, workspace?}               -> {data} (provider contract v1)
  POST /v1/proxy {url, method, headers, body}   -> upstream response, streamed (proxy_origins only)

bridge.json keys: allow_origins, proxy_origins, web_fetch {enabled, allow_private}, mcp_servers
{name: {command, cwd}}, io_limit_bytes, manifest. See bridge/README.md.`;

export function parseCliArgs(argv: string[]): CliArgs {
  const args: CliArgs = {
    help: false,
    port: DEFAULT_PORT,
    manifest: undefined,
    allowOrigins: [],
    roots: [],
    configDir: undefined,
    ioLimitBytes: undefined,
    noSettings: false,
    exitWithStdin: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] =
      flag.startsWith('--') && flag.includes('=')
        ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
        : [flag, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new BridgeError('E_USAGE', `${name} needs a value. See i-bridge --help.`);
      return v;
    };
    switch (name) {
      case '-h':
      case '--help':
        args.help = true;
        break;
      case '--port': {
        const v = value();
        const port = Number(v);
        if (!/^\d+$/.test(v) || port > 65535) throw new BridgeError('E_USAGE', `--port expects 0–65535, not "${v}".`);
        args.port = port;
        break;
      }
      case '--manifest':
        args.manifest = value();
        break;
      case '--allow-origin':
        args.allowOrigins.push(value());
        break;
      case '--root':
        args.roots.push(value());
        break;
      case '--config-dir':
        args.configDir = value();
        break;
      case '--io-limit-bytes': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n < MIN_IO_LIMIT_BYTES || n > MAX_IO_LIMIT_BYTES) {
          throw new BridgeError(
            'E_USAGE',
            `--io-limit-bytes expects an integer from ${MIN_IO_LIMIT_BYTES} to ${MAX_IO_LIMIT_BYTES}, not "${v}".`,
          );
        }
        args.ioLimitBytes = n;
        break;
      }
      case '--no-settings':
      case '--exit-with-stdin':
        if (inline !== undefined) throw new BridgeError('E_USAGE', `${name} takes no value. See i-bridge --help.`);
        if (name === '--no-settings') args.noSettings = true;
        else args.exitWithStdin = true;
        break;
      default:
        throw new BridgeError('E_USAGE', `Unknown argument "${flag}". See i-bridge --help.`);
    }
  }
  return args;
}
