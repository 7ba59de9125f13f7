// `hplugin run PACKAGE --tool NAME --args JSON --workspace DIR [--workspace-id ID] [--allow-write] [--timeout-ms N]
// [--storage DIR]`: one plugin invocation in Node, with the app's package validation and the same worker driver,
// host operations and limits (plugin-host/runtime). stdout is the `done` output verbatim.
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import {
  AbortCode,
  DEFAULT_TIMEOUT_MS,
  escapeProse,
  invokePlugin,
  MemoryKvStore,
  PLUGIN_ERROR_CODE,
  quoteUntrusted,
  toErrorData,
  validatePackage,
  type KvStore,
  type ValidatedPackage,
} from '../../plugin-host';
import { createNodeWorkspaceFs, FileKvStore, nodeWorkerFactory } from '../../plugin-host/node';
import { compileSchema } from '../../plugin-host/schema';
import { parseArgs, UsageError } from '../args';
import { errorLine, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, processIo, type CliIo } from '../io';
import { readPackage } from '../read-package';

export const runHelp = `Usage: hplugin run PACKAGE --tool NAME --args JSON --workspace DIR [options]

Runs one tool of a .hplugin.zip in Node, exactly as the app would: same validation, same sandbox, same limits.

  --tool NAME          the tool's local name from the manifest
  --args JSON          the tool arguments, a JSON object
  --workspace DIR      the folder the plugin may read (and write, with --allow-write)
  --workspace-id ID    KV scope; default: derived from the folder's canonical path
  --allow-write        let the plugin write files in the folder (writes are refused otherwise)
  --timeout-ms N       budget for the whole run, from reading the package and checking --args to the plugin's
                       answer, default ${DEFAULT_TIMEOUT_MS}
  --storage DIR        keep the plugin's KV in DIR across runs (default: in memory for this run)
  -h, --help           show this help

Exit status: 0 done (stdout is the plugin's output: verbatim into a pipe or file; on a terminal its control
characters are shown escaped, e.g. \\x1b); 1 refused package, plugin error or aborted invocation (one
"error E_CODE: message" line on stderr); 2 usage error.
`;

const spec = {
  '--tool': { name: 'tool', value: true },
  '--args': { name: 'args', value: true },
  '--workspace': { name: 'workspace', value: true },
  '--workspace-id': { name: 'workspace-id', value: true },
  '--allow-write': { name: 'allow-write', value: false },
  '--timeout-ms': { name: 'timeout-ms', value: true },
  '--storage': { name: 'storage', value: true },
  '--help': { name: 'help', value: false },
  '-h': { name: 'help', value: false },
};

interface RunRequest {
  file: string;
  tool: string;
  args: unknown;
  workspace: string;
  workspaceId: string | undefined;
  allowWrite: boolean;
  timeoutMs: number;
  storage: string | undefined;
}

/** Shells eat double quotes unless the whole object is in single quotes; JSON keys need double quotes. */
const ARGS_EXAMPLE = `Pass one JSON object with double-quoted keys, in single quotes for the shell: --args '{"path":"notes.txt"}' (or --args '{}' for no arguments)`;

function parse(argv: string[]): RunRequest | 'help' {
  const { flags, positionals } = parseArgs(argv, spec);
  if (flags.has('help')) return 'help';
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'missing PACKAGE' : 'run takes one PACKAGE');
  const need = (name: string) => {
    const v = flags.get(name);
    if (typeof v !== 'string') throw new UsageError(`missing --${name}`);
    return v;
  };
  let args: unknown;
  const text = need('args');
  try {
    args = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--args is not valid JSON (${e instanceof Error ? e.message : String(e)}). ${ARGS_EXAMPLE}`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new UsageError(`--args must be a JSON object, not ${quoteUntrusted(args)}. ${ARGS_EXAMPLE}`);
  const timeout = flags.get('timeout-ms');
  const timeoutMs = typeof timeout === 'string' ? Number(timeout) : DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 3_600_000)
    throw new UsageError('--timeout-ms must be a whole number of milliseconds from 1 to 3600000');
  const id = flags.get('workspace-id');
  const storage = flags.get('storage');
  return {
    file: positionals[0]!,
    tool: need('tool'),
    args,
    workspace: need('workspace'),
    workspaceId: typeof id === 'string' ? id : undefined,
    allowWrite: flags.has('allow-write'),
    timeoutMs,
    storage: typeof storage === 'string' ? storage : undefined,
  };
}

/** What the tool accepts, from its schema: the property names, which are required, and where the schema lives. */
function parametersHint(parameters: unknown): string {
  const schema = parameters as { properties?: Record<string, unknown>; required?: string[] };
  const names = Object.keys(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const list = names.map((n) => (required.has(n) ? `${n} (required)` : n)).join(', ');
  return `Give --args the fields of the tool's "parameters" in manifest.json${list ? `: ${list}` : " (it takes none: --args '{}')"}.`;
}

/** A Rust panic under panic = "abort" reaches the host as an `unreachable` trap; say so, and how to find it. */
function trapHint(code: string, message: string): string {
  if (code !== 'E_RUN_TRAP' || !/unreachable/.test(message)) return '';
  return ' In a Rust plugin this is usually a panic (panic = "abort" turns it into this trap, and its message is lost): reproduce the call with cargo test and harness_wasm_sdk::testing::Driver to see it, and return StepOutput::error instead of panicking.';
}

/** The plugin's own budget is what reading and checking left of --timeout-ms: say so next to its figure. */
function budgetHint(code: string, timeoutMs: number): string {
  return code === AbortCode.TIMEOUT
    ? ` (That is what was left of --timeout-ms ${timeoutMs} after reading and checking the package and --args.)`
    : '';
}

/** Stable default workspace id: the same folder (through any symlink or relative path) gets the same KV scope. */
export async function defaultWorkspaceId(dir: string): Promise<string> {
  return `dir-${createHash('sha256')
    .update(await realpath(dir))
    .digest('hex')
    .slice(0, 32)}`;
}

/**
 * The run's one budget, started before the first byte is read: reading and validating the package and checking
 * --args spend it too, and the plugin gets only what is left. Validation is synchronous work that cannot be
 * interrupted, so it is checked between steps (each step is bounded: the package by its size cap, --args by the
 * linear-time pattern engine).
 */
class Deadline {
  private readonly end: number;
  constructor(
    readonly budgetMs: number,
    startedAt: number,
  ) {
    this.end = startedAt + budgetMs;
  }
  remaining(): number {
    return this.end - performance.now();
  }
  check(step: string): void {
    if (this.remaining() > 0) return;
    throw {
      code: AbortCode.TIMEOUT,
      message: `The run's ${this.budgetMs} ms budget was spent before the plugin started (while ${step}). Nothing was run; raise --timeout-ms.`,
    };
  }
}

export async function runCommand(argv: string[], io: CliIo = processIo): Promise<number> {
  const startedAt = performance.now();
  let request: RunRequest;
  try {
    const parsed = parse(argv);
    if (parsed === 'help') {
      io.stdout(runHelp);
      return EXIT_OK;
    }
    request = parsed;
    const info = await stat(request.workspace).catch(() => null);
    if (!info?.isDirectory())
      throw new UsageError(
        `--workspace ${request.workspace} ${info ? 'is a file, not a folder' : 'does not exist'}; pass the folder the plugin may read (create one with mkdir if you need an empty workspace)`,
      );
    if (request.storage !== undefined) {
      const s = await stat(request.storage).catch(() => null);
      if (s && !s.isDirectory()) throw new UsageError(`--storage ${request.storage} is not a folder`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    errorLine(io, 'E_USAGE', `${error.message}. Run "hplugin run --help".`);
    return EXIT_USAGE;
  }
  const deadline = new Deadline(request.timeoutMs, startedAt);

  let pkg: ValidatedPackage;
  try {
    pkg = await validatePackage(await readPackage(request.file, deadline));
    deadline.check('validating the package');
  } catch (error) {
    const data = toErrorData(error);
    errorLine(io, data.code, data.message);
    return EXIT_REFUSED;
  }

  const m = pkg.manifest;
  const tool = m.tools.find((t) => t.name === request.tool);
  if (!tool) {
    errorLine(
      io,
      'E_USAGE',
      `${m.id} has no tool ${quoteUntrusted(request.tool)}; its tools: ${m.tools.map((t) => t.name).join(', ')}. Pass one of these local names (the "name" of a tool in manifest.json) with --tool.`,
    );
    return EXIT_USAGE;
  }
  // The app checks arguments against the tool's schema before a call reaches the plugin; so does this command, with
  // the app's own check: a schema `pattern` runs in the linear-time engine, never in a backtracking RegExp.
  let problems: string[];
  try {
    problems = compileSchema(tool.parameters as Record<string, unknown>, 'args')(request.args);
    deadline.check('checking --args');
  } catch (error) {
    const data = toErrorData(error);
    errorLine(io, data.code, data.message);
    return EXIT_REFUSED;
  }
  // A check that could not be made says why with its own code: the tool's pattern is unsupported (the package's
  // fault, exit 1) or the arguments are too large to check (exit 2).
  const coded = problems.map((p) => /^At [^:]*: (E_SCHEMA_[A-Z_]+): (.*)$/s.exec(p)).find((m) => m !== null);
  if (coded) {
    errorLine(io, coded[1]!, coded[2]!);
    return coded[1] === 'E_SCHEMA_PATTERN_UNSUPPORTED' ? EXIT_REFUSED : EXIT_USAGE;
  }
  if (problems.length > 0) {
    const first = problems[0]!.replace(/^At /, 'at ').replace(/\.$/, '');
    errorLine(
      io,
      'E_USAGE',
      `--args does not match ${tool.name}'s parameters: ${first}. ${parametersHint(tool.parameters)}`,
    );
    return EXIT_USAGE;
  }
  let fs;
  let workspaceId: string;
  try {
    fs = await createNodeWorkspaceFs({ root: request.workspace, access: request.allowWrite ? 'read-write' : 'read' });
    workspaceId = request.workspaceId ?? (await defaultWorkspaceId(request.workspace));
    deadline.check('opening the workspace');
  } catch (error) {
    const data = toErrorData(error);
    errorLine(io, data.code, data.message);
    return EXIT_REFUSED;
  }
  const kv: KvStore = request.storage !== undefined ? new FileKvStore(request.storage) : new MemoryKvStore();

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    const result = await invokePlugin({
      plugin: {
        id: m.id,
        version: m.version,
        sha256: pkg.sha256,
        permissions: m.permissions,
        tools: m.tools,
        wasm: pkg.wasm,
      },
      tool: request.tool,
      arguments: request.args,
      workspaceId,
      fs,
      kv,
      // --allow-write is the person's approval for this run; without it the folder is read-only.
      approval: { mode: 'auto' },
      createWorker: nodeWorkerFactory(),
      // What is left of --timeout-ms after reading and checking (at least 1 ms: the check above saw time left).
      timeoutMs: Math.max(1, Math.floor(deadline.remaining())),
      signal: controller.signal,
    });
    switch (result.status) {
      case 'done':
        // Into a pipe or file the output is data and stays exact; a terminal would act on its escape sequences.
        io.stdout(io.stdoutIsTerminal ? escapeProse(result.output) : result.output);
        return EXIT_OK;
      case 'error':
        errorLine(io, PLUGIN_ERROR_CODE, result.error);
        return EXIT_REFUSED;
      case 'aborted':
        errorLine(
          io,
          result.error.code,
          `${result.error.message}${trapHint(result.error.code, result.error.message)}${budgetHint(result.error.code, request.timeoutMs)}`,
        );
        if (result.sideEffects)
          io.stderr(
            'note: the plugin may have written files or KV before it stopped; check before running it again.\n',
          );
        return EXIT_REFUSED;
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
}
