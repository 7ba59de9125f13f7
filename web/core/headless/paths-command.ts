// `i paths [-C DIR] [--workspace-id UUID] [--json]` (seed 000 §3: "i --runtime paths -C PROJECT 可查看解析结果"):
// the four folders i resolved from I_*_DIR / HOME and the project's workspace id, the same UUID i-bridge uses for
// that folder (bound on first use, like any run). No config is read and no model is called.
import { join } from 'node:path';
import { escapeControls, HarnessError, stringifyForTerminal } from '../contracts';
import { resolveAppPaths, type AppPaths } from './paths';
import { cliErrorData, EXIT_OK, EXIT_USAGE, type CliIo } from './run';
import { headlessWorkspaceId, REGISTRY_FILE } from './workspace-id';
import { projectFolder, unknownFor, walkFlags } from './flags';

export const PATHS_USAGE = `Usage: i paths [-C DIR] [--workspace-id UUID] [--json]

Prints the folders i uses and the workspace id of the project DIR, then exits 0 (2 on usage or configuration
errors, printed as \`error E_CODE: what to do\`). Nothing is read from the config folder and no model is called.
  config_dir    settings (config.json, approval.json, plugins.json, ...): $I_CONFIG_DIR or ~/.i/config
  data_dir      kept state (workspaces.json, workspaces/<id>/memory.json, statistics): $I_DATA_DIR or ~/.i/data
  cache_dir     what may be deleted and rebuilt: $I_CACHE_DIR or ~/.i/cache
  runtime_dir   sockets, locks, bridge.json of a running bridge: $I_RUNTIME_DIR or ~/.i/runtime
  workspace_id  the UUID bound to DIR's real path in data_dir/workspaces.json (bound now if it has none); i-bridge
                and the private bridge of a run use the same one. With --workspace-id, that UUID instead.

Options:
  -C, --cwd DIR          The project folder. Default: the current directory.
  --workspace-id UUID    A workspace id given by a trusted host (must be a UUID); the registry is not used.
  --json                 One JSON object: {"version": 1, "workspace", "workspace_id", "workspace_id_source"
                         ("registry" or "explicit"), "registry", "workspace_state", "paths": {config_dir, data_dir,
                         cache_dir, runtime_dir}}.
  -h, --help             This help.`;

interface PathsArgs {
  dir: string | null;
  workspaceId: string | null;
  json: boolean;
  help: boolean;
}

function parsePathsArgs(argv: readonly string[]): PathsArgs {
  const out: PathsArgs = { dir: null, workspaceId: null, json: false, help: false };
  const usage = (m: string) => new HarnessError('E_USAGE', `${m} Run \`i paths --help\` for usage.`);
  walkFlags(
    argv,
    usage,
    (flag, take) => {
      if (flag === '-C' || flag === '--cwd') out.dir = take();
      else if (flag === '--workspace-id') out.workspaceId = take();
      else if (flag === '--json') out.json = true;
      else if (flag === '-h' || flag === '--help') out.help = true;
      else return false;
      return true;
    },
    unknownFor('i paths'),
  );
  return out;
}

export interface PathsDocument {
  version: 1;
  workspace: string;
  workspace_id: string;
  workspace_id_source: 'registry' | 'explicit';
  registry: string;
  workspace_state: string;
  paths: AppPaths;
}

/** What `i paths` prints; warnings (old data that could not be moved) go to `warn`. */
export async function resolvePaths(
  io: Pick<CliIo, 'env' | 'cwd'>,
  args: Pick<PathsArgs, 'dir' | 'workspaceId'>,
  warn: (text: string) => void,
): Promise<PathsDocument> {
  const paths = resolveAppPaths(io.env);
  const workspace = await projectFolder(io.cwd, args.dir);
  const identity = await headlessWorkspaceId(paths.data_dir, workspace, args.workspaceId);
  for (const w of identity.warnings) warn(w);
  return {
    version: 1,
    workspace,
    workspace_id: identity.id,
    workspace_id_source: identity.source,
    registry: join(paths.data_dir, REGISTRY_FILE),
    workspace_state: join(paths.data_dir, 'workspaces', identity.id),
    paths,
  };
}

/** The `i paths` command: argv after "paths". */
export async function runPathsCommand(io: CliIo): Promise<number> {
  const json = io.argv.includes('--json');
  const safe = (t: string) => escapeControls(t, { keepLayout: false });
  const fail = (error: unknown) => {
    const e = cliErrorData(error, 'E_CONFIG_INVALID');
    if (json) io.stdout(`${stringifyForTerminal({ type: 'error', error: e })}\n`);
    else io.stderr(`error ${safe(e.code)}: ${safe(e.message)}\n`);
    return EXIT_USAGE;
  };
  try {
    const args = parsePathsArgs(io.argv);
    if (args.help) {
      io.stdout(`${PATHS_USAGE}\n`);
      return EXIT_OK;
    }
    const doc = await resolvePaths(io, args, (w) => io.stderr(`warning: ${safe(w)}\n`));
    if (json) {
      io.stdout(`${stringifyForTerminal(doc, 2)}\n`);
    } else {
      const from = doc.workspace_id_source === 'explicit' ? '--workspace-id' : doc.registry;
      const rows: Array<[string, string]> = [
        ['workspace', doc.workspace],
        ['workspace_id', `${doc.workspace_id}  (${from})`],
        ['state', doc.workspace_state],
        ['config_dir', doc.paths.config_dir],
        ['data_dir', doc.paths.data_dir],
        ['cache_dir', doc.paths.cache_dir],
        ['runtime_dir', doc.paths.runtime_dir],
      ];
      io.stdout(rows.map(([k, v]) => `${k.padEnd(13)} ${safe(v)}`).join('\n') + '\n');
    }
    return EXIT_OK;
  } catch (error) {
    return fail(error);
  }
}
