// `i --provider-action JSON [--config FILE] [-C DIR] [--json]`: the management channel (seed 003), separate from
// turns: no model call, no session read or written, no hooks. Needs provider_operations: true in the model config
// (exit 2 naming the key otherwise). A plain delete asks on the terminal; --yolo is accepted and changes nothing.
// Emits one `provider_manage` event with --json. Exit 0 done, 1 the provider refused or the person declined, 2
// usage/configuration (including a delete that must ask without a terminal).
import { promises as fsp } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { join, resolve } from 'node:path';
import { escapeControls, HarnessError, stringifyForTerminal, type ErrorData } from '../contracts';
import {
  accountScope,
  DEFAULT_PROVIDER_JSON,
  FileRegistry,
  filesUnsupportedReason,
  parseManageAction,
  runManageAction,
  vendorFilesFor,
  MAX_LIST_PAGES,
  type ManageResult,
} from '../provider-files';
import { nodeRegistryStore } from '../provider-files/node';
import { readJson } from './config-files';
import { walkFlags } from './flags';
import { parseModelConfig } from './model-config';
import { resolveAppPaths } from './paths';
import { loadProviderJson, workspaceStateDir } from './provider-files';
import { cliErrorData, EXIT_OK, EXIT_TURN_FAILED, EXIT_USAGE, type CliIo } from './run';
import { headlessWorkspaceId } from './workspace-id';

export interface ProviderActionIo extends CliIo {
  /** Asks a yes/no question on the terminal; null when standard input is not a terminal. */
  confirm: ((question: string) => Promise<boolean>) | null;
}

export const hasProviderAction = (argv: readonly string[]) =>
  argv.some((a) => a === '--provider-action' || a.startsWith('--provider-action='));

/** The terminal question for cli.ts: the answer must be y or yes. */
export async function askOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

interface ActionArgs {
  action: string;
  config: string | null;
  dir: string | null;
  json: boolean;
}

function parseActionArgs(argv: readonly string[]): ActionArgs {
  const out: ActionArgs = { action: '', config: null, dir: null, json: false };
  walkFlags(
    argv,
    (m) => new HarnessError('E_USAGE', `${m} Run \`i --help\` for usage.`),
    (flag, take) => {
      if (flag === '--provider-action') out.action = take();
      else if (flag === '--config') out.config = take();
      else if (flag === '-C' || flag === '--cwd') out.dir = take();
      else if (flag === '--json') out.json = true;
      else if (flag !== '--yolo' && flag !== '--dangerously-skip-permissions') return false; // accepted; never skips the confirmation
      return true;
    },
    (arg) => `--provider-action takes only --config FILE, -C DIR and --json; ${arg} does not apply (no turn runs).`,
  );
  return out;
}

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

function humanText(r: ManageResult): string {
  const row = (f: {
    file_id: string;
    bytes: number | null;
    created_at: number | null;
    expires_at: number | null;
    known: boolean;
  }) =>
    `${f.file_id}  ${f.bytes ?? '?'} bytes  created ${when(f.created_at)}  expires ${when(f.expires_at)}${f.known ? '  (uploaded by this app)' : ''}`;
  switch (r.action) {
    case 'list':
      return (
        (r.files.length ? `${r.files.map(row).join('\n')}\n` : 'No remote files.\n') +
        (r.complete
          ? ''
          : `The provider has more files than ${r.files.length} (the list stops after ${MAX_LIST_PAGES} pages).\n`)
      );
    case 'get':
      return `${row(r.file)}\n`;
    case 'delete':
      return `Deleted ${r.file_id} (${r.confirmed_by === 'person' ? 'confirmed by you' : 'cleanup under provider_cleanup'}).\n`;
    case 'reconcile':
      if (!r.complete)
        return `The provider listed more files than ${r.remote} (the list stops after ${MAX_LIST_PAGES} pages), so no local record was forgotten; ${r.unknown_remote.length} listed file(s) not in the local registry (not deleted).\n`;
      return `${r.remote} remote file(s); ${r.unknown_remote.length} not in the local registry${r.unknown_remote.length ? ` (${r.unknown_remote.join(', ')}; not deleted)` : ''}; ${r.forgotten_local.length} local record(s) of files the provider no longer has forgotten.\n`;
  }
}

export async function runProviderAction(io: ProviderActionIo): Promise<number> {
  const json = io.argv.includes('--json');
  const fail = (error: ErrorData, code: number) => {
    if (json) io.stdout(`${stringifyForTerminal({ type: 'error', stop_reason: null, error })}\n`);
    else
      io.stderr(
        `error ${escapeControls(error.code, { keepLayout: false })}: ${escapeControls(error.message, { keepLayout: false })}\n`,
      );
    return code;
  };
  let ctx;
  try {
    const args = parseActionArgs(io.argv);
    const action = parseManageAction(args.action);
    const paths = resolveAppPaths(io.env);
    const configFile = args.config !== null ? resolve(io.cwd, args.config) : join(paths.config_dir, 'config.json');
    const raw = await readJson(configFile, 'model config');
    // No model is called: a config without "model" is fine here.
    const { config } = parseModelConfig(
      typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('model' in raw)
        ? { ...raw, model: '(none)' }
        : raw,
      configFile,
    );
    if (!config.provider_operations) {
      throw new HarnessError(
        'E_PROVIDER_OPERATIONS_OFF',
        `--provider-action sends provider operations, which ${configFile} does not allow. Set "provider_operations": true in it to manage remote files.`,
        { file: configFile, key: 'provider_operations' },
      );
    }
    const vendor = vendorFilesFor(config.protocol);
    if (!vendor)
      throw new HarnessError(
        'E_PROVIDER_FILES_UNSUPPORTED',
        `--provider-action has no Files API for protocol "${config.protocol}": ${filesUnsupportedReason(config.protocol)}`,
        { protocol: config.protocol },
      );
    const apiKey = config.api_key_env ? io.env[config.api_key_env] : undefined;
    if (config.api_key_env && !apiKey)
      throw new HarnessError(
        'E_API_KEY_MISSING',
        `The environment variable ${config.api_key_env} (api_key_env in ${configFile}) is not set. Export the key in it.`,
        { name: config.api_key_env },
      );
    const workspace = await fsp.realpath(resolve(io.cwd, args.dir ?? '.'));
    const { id } = await headlessWorkspaceId(paths.data_dir, workspace, null);
    const registry = new FileRegistry(nodeRegistryStore(workspaceStateDir(paths.data_dir, id)));
    const scope = accountScope(
      (await loadProviderJson(paths.config_dir)) ?? DEFAULT_PROVIDER_JSON,
      config.base_url,
      config.api_key_env,
    );
    ctx = {
      action,
      deps: {
        vendor,
        registry,
        scope,
        confirm: io.confirm,
        cleanupAllowed: config.provider_cleanup === true,
        ports: {
          baseUrl: config.base_url,
          apiKeyName: config.api_key_env,
          getSecret: () => apiKey,
          signal: io.signal,
          ...(io.fetch ? { fetch: io.fetch } : {}),
        },
      },
    };
  } catch (error) {
    return fail(cliErrorData(error, 'E_USAGE'), EXIT_USAGE);
  }
  try {
    const result = await runManageAction(ctx.action, ctx.deps);
    if (json) io.stdout(`${stringifyForTerminal({ type: 'provider_manage', version: 1, result })}\n`);
    else io.stdout(escapeControls(humanText(result), { keepLayout: true }));
    return EXIT_OK;
  } catch (error) {
    const e = cliErrorData(error, 'E_PROVIDER_MANAGE_FAILED');
    return fail(e, e.code === 'E_PROVIDER_CONFIRM_NEEDS_TTY' ? EXIT_USAGE : EXIT_TURN_FAILED);
  }
}
