// i-bridge: the optional localhost process that runs native NDJSON workers for the browser.
import { escapeControls } from '../net';
import { parseCliArgs, USAGE } from './cli-args';
import { toErrorData } from './errors';
import { startBridge, type RunningBridge } from './start-bridge';

// Every line i-bridge prints may quote text it does not control: worker and MCP server stderr, MCP tool names,
// manifest names and paths. Each is written with control, C1 and bidi characters escaped (one line each), so no
// escape sequence from them reaches the terminal. The helper is net/untrusted-text.ts, a copy of plugin-host's
// escapeControls below the bridge: the bridge stands alone and may not import plugin-host.
const out = (line: string) => console.log(escapeControls(line));
const err = (line: string) => console.error(escapeControls(line));

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  // Signals are ours from the start: a stop while MCP servers start must stop them too, not leave them running.
  const starting = new AbortController();
  const started: { bridge?: RunningBridge } = {};
  let stopping = false;
  const stop = () => {
    const running = started.bridge;
    if (!running) {
      if (starting.signal.aborted) process.exit(130); // a second stop during start: do not wait any longer
      return starting.abort();
    }
    if (stopping) return;
    stopping = true;
    void running.close().finally(() => setTimeout(() => process.exit(0), 600));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  const bridge = await startBridge({
    port: args.port,
    roots: args.roots,
    allowOrigins: args.allowOrigins,
    ...(args.manifest ? { manifestPath: args.manifest } : {}),
    ...(args.configDir ? { configDir: args.configDir } : {}),
    ...(args.ioLimitBytes !== undefined ? { ioLimitBytes: args.ioLimitBytes } : {}),
    ...(args.noSettings ? { noSettings: true } : {}),
    signal: starting.signal,
    log: (line) => err(`i-bridge: ${line}`),
  });
  started.bridge = bridge;
  // Bridge exit kills every worker group, however the process ends.
  process.on('exit', () => bridge.killNow());
  if (args.exitWithStdin) {
    // The parent holds the other end of a pipe: its exit, however it happens, is end of file here.
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.on('error', stop);
    process.stdin.resume(); // read and drop whatever arrives, so EOF is seen
  }
  const m = bridge.core.manifestView();
  out(`i-bridge listening on ${bridge.url} (also http://[::1]:${bridge.port} when IPv6 is available)`);
  out(
    `Pairing code: ${bridge.pairingCode.slice(0, 4)}-${bridge.pairingCode.slice(4)} (single use, expires in 10 minutes)`,
  );
  out(`Roots: ${bridge.core.roots.join(', ')}`);
  out(
    `Tools: ${m.tools.map((t) => t.name).join(', ') || '(none)'}; hooks: ${m.hooks.length}; provider: ${m.provider ? 'yes' : 'no'}`,
  );
  if (bridge.bridgeFile) out(`Token for local tools: ${bridge.bridgeFile}`);
}

main().catch((error: unknown) => {
  const e = toErrorData(error);
  err(`error ${e.code}: ${e.message}`);
  process.exit(2);
});
