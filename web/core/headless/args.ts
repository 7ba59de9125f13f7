// Command-line parsing for `i`. Usage errors exit 2.
import { HarnessError } from '../contracts';
import { walkFlags } from './flags';

export interface CliArgs {
  dir: string | null;
  config: string | null;
  sessionName: string | null;
  yolo: boolean;
  /** --allow-git-writes: the workspace write policy lets write/edit and plugins change files inside .git. */
  allowGitWrites: boolean;
  json: boolean;
  prompt: string | null;
  help: boolean;
  version: boolean;
  maxSteps: number | null;
  /** --recover NEW_NAME: copy the intact part of the damaged --session-name into NEW_NAME; no turn runs. */
  recover: string | null;
  /** --compact [FOCUS]: compact the saved --session-name now (a compaction-only turn, no prompt). */
  compact: { focus?: string } | null;
  /** --changes: list the files each turn of --session-name changed; no turn runs. */
  changes: boolean;
  /**
   * --revert [TURN]: put back the files changed by TURN and later turns ('last': the newest turn with changes);
   * 'redo' (--redo): undo the newest revert still in effect.
   */
  revert: number | 'last' | 'redo' | null;
  /** --force: --revert overwrites files changed outside the session instead of refusing (E_REVERT_CONFLICT). */
  force: boolean;
  /** --session FILE: the session stored in (and resumed from) one file anywhere (headless/session-file.ts). */
  sessionFile: string | null;
  /** --workspace-id UUID: a trusted host's binding instead of the registry's (checked in workspace-id.ts). */
  workspaceId: string | null;
  /** --sandbox on|off: whether the shell tool runs commands in the OS sandbox (null: shell.json, default on). */
  sandbox: 'on' | 'off' | null;
}

const usageError = (message: string) => new HarnessError('E_USAGE', `${message} Run \`i --help\` for usage.`);

export function parseArgs(argv: readonly string[]): CliArgs {
  const out: CliArgs = {
    dir: null,
    config: null,
    sessionName: null,
    yolo: false,
    allowGitWrites: false,
    json: false,
    prompt: null,
    help: false,
    version: false,
    maxSteps: null,
    recover: null,
    compact: null,
    changes: false,
    revert: null,
    force: false,
    sessionFile: null,
    workspaceId: null,
    sandbox: null,
  };
  walkFlags(
    argv,
    usageError,
    (flag, take, arg, takeIf) => {
      switch (flag) {
        case '-h':
        case '--help':
          out.help = true;
          break;
        case '--version':
          out.version = true;
          break;
        case '-C':
        case '--cwd':
          out.dir = take();
          break;
        case '--config':
          out.config = take();
          break;
        case '--session-name':
          out.sessionName = take();
          break;
        case '--session':
          out.sessionFile = take();
          break;
        case '--workspace-id':
          out.workspaceId = take();
          break;
        case '--yolo':
        case '--dangerously-skip-permissions':
          out.yolo = true;
          break;
        case '--allow-git-writes':
          out.allowGitWrites = true;
          break;
        case '--sandbox': {
          const value = take();
          if (value !== 'on' && value !== 'off')
            throw usageError('--sandbox must be "on" (commands run in the OS sandbox, the default) or "off".');
          out.sandbox = value;
          break;
        }
        case '--json':
          out.json = true;
          break;
        case '-p':
        case '--prompt':
          if (out.prompt !== null) throw usageError('Give the prompt once.');
          out.prompt = take();
          break;
        case '--recover':
          out.recover = take();
          break;
        case '--compact': {
          // FOCUS is optional: the next word is taken unless it is another option (`--compact=-x` for that).
          const focus = takeIf((next) => !next.startsWith('-'));
          out.compact = focus !== undefined && focus.trim() !== '' ? { focus } : {};
          break;
        }
        case '--changes':
          out.changes = true;
          break;
        case '--force':
          out.force = true;
          break;
        case '--revert': {
          // TURN is optional: the next word is taken only when it is a number (`--revert --json` reverts the last turn).
          const text = takeIf((next) => /^[0-9]+$/.test(next)) ?? null;
          if (text !== null && !/^[1-9][0-9]{0,8}$/.test(text))
            throw usageError('--revert TURN must be a turn number (1, 2, ...; see --changes).');
          out.revert = text === null ? 'last' : Number(text);
          break;
        }
        case '--redo':
          out.revert = 'redo';
          break;
        case '--max-steps': {
          // Digits only: Number() would also take "0x10", "1e2" and " 3 ".
          const text = take();
          const n = /^[0-9]{1,4}$/.test(text) ? Number(text) : NaN;
          if (!Number.isInteger(n) || n < 1 || n > 1000)
            throw usageError('--max-steps must be an integer from 1 to 1000.');
          out.maxSteps = n;
          break;
        }
        default:
          return false;
      }
      return true;
    },
    (arg) =>
      arg.startsWith('-') ? `Unknown option ${arg}.` : `Unexpected argument "${arg}" (the prompt goes after -p).`,
  );
  if (!out.help && !out.version && out.sessionFile !== null) {
    if (out.sessionName !== null) throw usageError('Give --session FILE or --session-name NAME, not both.');
    if (out.recover !== null || out.changes || out.revert !== null || out.compact !== null)
      throw usageError(
        '--recover, --changes, --revert and --compact work on --session-name sessions, not on --session FILE.',
      );
  }
  if (!out.help && !out.version && out.recover !== null) {
    if (out.sessionName === null)
      throw usageError('--recover NEW_NAME needs --session-name NAME: the damaged session to recover from.');
    if (out.prompt !== null || out.json || out.yolo || out.allowGitWrites || out.maxSteps !== null) {
      throw usageError(
        '--recover only copies a session and runs no turn: leave out -p, --json, --yolo, --allow-git-writes and --max-steps, then continue with --session-name NEW_NAME -p PROMPT.',
      );
    }
    return out;
  }
  if (!out.help && !out.version && (out.changes || out.revert !== null || out.force)) {
    if (out.force && out.revert === null) throw usageError('--force only applies to --revert.');
    if (out.changes && out.revert !== null) throw usageError('Give --changes or --revert, not both.');
    const op = out.changes ? '--changes' : out.revert === 'redo' ? '--redo' : '--revert';
    if (out.sessionName === null)
      throw usageError(
        `${op} needs --session-name NAME: the session whose changes to ${out.changes ? 'list' : op === '--redo' ? 'redo' : 'revert'}.`,
      );
    if (out.prompt !== null || out.yolo || out.maxSteps !== null)
      throw usageError(`${op} runs no turn: leave out -p, --yolo and --max-steps.`);
    return out;
  }
  if (!out.help && !out.version && out.compact !== null) {
    if (out.sessionName === null)
      throw usageError('--compact needs --session-name NAME: the saved session to compact.');
    if (out.prompt !== null)
      throw usageError(
        '--compact runs no prompt: leave out -p, compact first, then continue with --session-name NAME -p PROMPT.',
      );
    return out;
  }
  if (!out.help && !out.version) {
    if (out.prompt === null) throw usageError('Missing -p PROMPT.');
    if (out.prompt.trim() === '') throw usageError('The prompt is empty.');
  }
  return out;
}

export const USAGE = `Usage: i [-C DIR] [--config FILE] [--session-name NAME | --session FILE] [--yolo] [--allow-git-writes] [--sandbox on|off] [--json] -p PROMPT
       i [-C DIR] --session-name NAME --recover NEW_NAME
       i cache-report [-C DIR] [--config FILE] [--json]   prompt-cache statistics (i cache-report --help)
       i paths [-C DIR] [--workspace-id UUID] [--json]   the folders i uses and the project's workspace id
       i [-C DIR] [--config FILE] --provider-action JSON [--json]   remote provider files (below); runs no turn
       i smoke [--config FILE] [--output-cap N] [--thinking] [--image FILE] [--json]   a cheap check of the model (i smoke --help)
       i logo [--plain] [--ascii] [--svg]   the logo (NO_COLOR: no colour anywhere i prints it)
       i [-C DIR] [--config FILE] --session-name NAME --compact [FOCUS] [--json]
       i [-C DIR] --session-name NAME --changes [--json]
       i [-C DIR] --session-name NAME --revert [TURN] [--force] [--json]
       i [-C DIR] --session-name NAME --redo [--force] [--json]

Runs one agent turn in the project folder DIR against the model in the config file, prints the final answer,
and exits: 0 when the model finished its answer, 1 when the turn failed (model error, budget, step limit,
cut-off answer, interrupted), 2 on usage or configuration errors. Ctrl-C stops the turn and keeps the session
up to the last complete step (exit 1); a second Ctrl-C quits at once (exit 130). Long options also take
--option=VALUE. Errors print \`error E_CODE: what to do\` on stderr; with --json the last line is always
{"type": "done"} (stop_reason "stop": exit 0; "length"/"incomplete": cut off, exit 1) or {"type": "error"}.
The answer and every line on stderr show control characters from the model, tools or providers escaped
(ESC as \\x1b, C1 and bidi characters as \\x9b, \\u202e; newlines and tabs kept); --json is the exact text.

Options:
  -p, --prompt PROMPT        What to ask (required). \`-p -\` reads it from standard input (at most 4 MiB).
  -C, --cwd DIR              The project folder (workspace). Default: the current directory.
  --config FILE              The model config (JSON). A relative path is resolved from the current directory,
                             not from -C. Default: $I_CONFIG_DIR/config.json (~/.i/config/config.json).
  --session-name NAME        Store the conversation in DIR/.i/sessions/NAME and resume it on the next run.
                             NAME: 1-64 letters, digits, ".", "_", "-", starting with a letter or digit.
  --session FILE             Store the conversation in FILE (one JSON file, anywhere; relative to the current
                             directory) and resume it on the next run. FILE records the workspace id: opening it
                             for another workspace is refused (E_SESSION_WORKSPACE_MISMATCH). Tool-result
                             references last one run; --changes/--revert/--compact need --session-name.
  --workspace-id UUID        The workspace id a trusted host assigned, instead of the registry's (must be a UUID).
  --yolo                     Run tools that normally ask for approval (alias --dangerously-skip-permissions).
                             Without it, such tools are refused and the model is told so; the run goes on.
  --allow-git-writes         Let write, edit and plugins change files inside .git (refused otherwise, even with
                             --yolo: git runs commands named in .git/config and .git/hooks); inside the shell
                             sandbox .git/hooks and .git/config become writable too.
  --sandbox on|off           The shell tool runs commands in the OS sandbox (on, the default; --yolo does not turn
                             it off): bubblewrap on Linux (package bubblewrap), sandbox-exec on macOS. Writable:
                             the workspace and a private /tmp; .git stays writable for git but its hooks and
                             config are read-only (git add/commit work; a planted hook cannot), .i read-only; the
                             rest of the system read-only; ~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gh, browser
                             profiles and i's own folders hidden; no network unless the call sets network: true.
                             Without a working sandbox a command is refused (E_SANDBOX_UNAVAILABLE). "off" runs
                             commands with your full rights and network, knowingly ($I_CONFIG_DIR/shell.json:
                             {"sandbox": "off"} to make it the default; "bwrap": "/path/to/bwrap").
  --json                     Print NDJSON events on stdout instead of the answer (schema: web/core/agent/CONTEXT.md).
  --max-steps N              Model calls per turn before stopping (default 50).
  --recover NEW_NAME         With --session-name NAME, for a session refused as E_SESSION_CORRUPT: copy its intact
                             part (every entry before the first damaged one, cut back to the last complete step,
                             never a tool call without its results) into the new session NEW_NAME, say where and
                             how many messages were kept, and exit 0. NAME is not changed (restore it from a
                             backup or delete its folder); no model is called and no config is read.
  --changes                  With --session-name NAME: list the files each turn of the session changed through
                             write, edit and plugins (path, turn, tool, bytes before -> after, reverted or not);
                             --json prints one {"type": "changes", ...} object. Exit 0.
  --revert [TURN]            With --session-name NAME: put every file changed by turn TURN and later turns back
                             to its state before TURN (default: the newest turn with changes not yet reverted):
                             created files are deleted, deleted ones recreated, bytes as they were. A file changed
                             since the session left it is refused with E_REVERT_CONFLICT and nothing is changed
                             (exit 1), as are turns whose checkpoints were pruned (E_CHECKPOINT_PRUNED).
  --redo                     With --session-name NAME: undo the newest revert still in effect (the files get the
                             contents that revert replaced), with the same E_REVERT_CONFLICT check; --changes
                             lists the revert as undone.
  --force                    With --revert or --redo: overwrite files changed outside the session as well.
                             Changes made by bridge or native (manifest) tools are not recorded and not reverted.
                             Checkpoints live in DIR/.i/sessions/NAME/checkpoints (at most 256 MiB of file
                             contents per project folder; the oldest are pruned with a warning).
  --compact [FOCUS]          With --session-name NAME: compact that saved session now instead of running a prompt.
                             The model summarises the older messages (the system prompt, AGENTS.md and the most
                             recent messages stay as they are; compact.json's keep_recent, default 4) and the
                             summary replaces them in what the model sees next; the session log keeps them. FOCUS
                             (optional, at most 2000 characters; --compact=FOCUS when it starts with "-") is what
                             the summary must pay particular attention to. Prints how many messages were folded,
                             the token estimate before and after, and the summary (--json: the events, incl.
                             "usage" and "compacted"). Exit 0 when compacted; 1 when it failed or there was
                             nothing to fold (E_COMPACT_NOTHING_TO_FOLD), the session then unchanged; 2 on usage
                             errors.
  -h, --help                 This help.  --version  The version.

Model config (unknown keys are refused with their path):
  {"protocol": "openai|deepseek|anthropic|responses",   default "openai"
   "base_url": "http://127.0.0.1:11434/v1",             required; the adapter appends the API path
   "model": "...",                                        required
   "api_key_env": "OPENAI_API_KEY",                       the key is read from this environment variable;
                                                          absent: no auth header (local servers)
   "max_tokens": 4096, "use_max_tokens": false,
   "budget": {"context_window": 128000, "output_reserve": max_tokens, "threshold": 0.8,
              "safety_ratio": 0.02, "tool_output_ratio": 0.02, "image_tokens": 1600,
              "tokenizer": "utf8_bytes"},              context_window is required while the profile
                                                          meters or compacts (the default); exit 2 without it;
                                                          requests ask for at most output_reserve tokens
   "extra_body": {}, "plugins": "FILE", "io_limit_bytes": 1048576,
   "provider": {"exec": [...], "cwd": "..."}, "provider_operations": false, "route": "direct"}
  "plugins": a desktop manifest (tools, hooks, provider), relative to the config file; "provider": {"exec": [...],
  "cwd": "..."} (relative to the config file, wins over the manifest's). Both run through a private i-bridge
  started for the run (none of your bridge.json settings apply to it; it keeps io_limit_bytes of each worker's
  stderr and stops with i). A protocol that is not built in needs one of them for its provider worker.
  "route" is the app's ("bridge": through the paired bridge's proxy, for providers without CORS); headless i
  always calls base_url directly, as Node has no CORS.
  "tool_view": {"names": ["read", ...], "groups": ["files", ...]}: the model sees only these tools (groups: files,
  search, web, memory, skills, shell, bridge, plugin:ID, mcp:SERVER); absent: all of them. A name or group that is not
  there, a duplicate, over 64 tools, over 4 MiB of schemas or over 1024 tools registered stops before any request.
  "tool_protocol": "native" (default: the provider's tool calling) or "json" (for models without it: no tools
  field is sent; the model answers with one JSON object {"type": "tool_call"|"final"|"ask_user", ...} and gets
  results back as {"jingwei_tool_result": {...}, "untrusted_tool_data": true}; a malformed reply is answered with
  an E_JSON_ACTION_* error and counts as a step).

Approval: read and view_image (and shell_output, shell_stop) run freely; every other tool asks. $I_CONFIG_DIR/approval.json may set
{"mode": "ask"|"auto", "deny_tools": [...], "rules": [...]}; "auto" runs tools without asking, deny_tools never run;
a shell command runs unasked in "auto" only inside the sandbox and without network (else it asks; --yolo runs it).
Rules: {"decision": "allow"|"ask"|"deny", "tool": NAME|"group:writes"|"plugin:ID"|"group:bridge"|"mcp:SERVER"|"*",
"path": GLOB (the file of write/edit/read/view_image; "dir/" = dir/**), "command": WORDS (tool "shell" only)};
a matching deny wins, then ask, then allow; no rule: the mode decides. {"decision": "allow", "tool": "shell",
"command": "npm test"} allows only one plain command starting with those words ("npm test -- -t x"); anything with
;, &&, ||, |, redirections, $, backticks, globs or line breaks still asks. A deny with a command matches when any
part of the command starts with its words ("ls && rm -rf x" under "rm"); when the program is hidden (a variable
in its place) it asks.
Protected paths: writes inside .git are refused in every mode (E_PATH_PROTECTED) unless --allow-git-writes;
writes inside .i (session logs and undo history) are refused in every mode, --yolo and --allow-git-writes too;
writes to files that run code when a folder is opened (.vscode/, .idea/, .devcontainer/, .envrc, .husky/,
.github/workflows/, .gitattributes, .gitmodules, .npmrc, …) always ask, so they run only with --yolo.

Agent features (optional files in $I_CONFIG_DIR; a bad file is a configuration error):
  plugins.json   {"profile": "standard"|"full", "disabled": ["memory", "skills", "web", ...]}  default: standard
  prompts.json   {"system": "prompts/system.txt"}  replaces the built-in system prompt (1-32000 characters);
                 {{workspace}} becomes the project folder's path
  skills.json    {"roots": [...]}  skill folders besides DIR/.agents/skills and DIR/.i/skills
  web.json       web_fetch / web_search settings; web_fetch checks every address (no private networks)
  bindings.json  modules bound to bridge workers are off in headless i (no built-in fallback)
  provider.json  {"images": "base64"|"files", "account_scope": "...", "expires_after_seconds": 3600-2592000}
                 default base64. "files" (protocols responses and anthropic) uploads each image once and sends its
                 file_id; it also needs "provider_operations": true in the model config (either alone: a warning,
                 nothing uploaded). Uploads are remembered in $I_DATA_DIR/workspaces/<id>/provider-files.json; a
                 failed upload is not retried (the image goes base64). --provider-action '{"action": "list"}' (or
                 "get"/"delete" with "file_id", or "reconcile") manages the remote files; a delete always asks on the
                 terminal (--yolo does not skip it; no terminal: refused). With "provider_cleanup": true in the model
                 config, {"action": "delete", "file_id": ..., "cleanup": true} of this app's own upload runs unasked.
                 "gc_expired": true (off by default) deletes up to 4 of this app's uploads whose expiry passed at
                 the start of a run, only with "provider_cleanup": true as well (--yolo never enables it).
DIR/AGENTS.md is sent after the system prompt as project instructions. Memory lives in
$I_DATA_DIR/workspaces/<id>/memory.json, cache statistics beside it (<id>: the project's workspace id, below).

Directories: I_CONFIG_DIR, I_DATA_DIR, I_CACHE_DIR, I_RUNTIME_DIR override ~/.i/{config,data,cache,runtime}
(absolute paths only). \`i paths -C DIR\` prints them and the workspace id.

Workspace id: $I_DATA_DIR/workspaces.json gives each project folder (by its real path) a UUID, the same one
i-bridge uses for that folder, so memory and cache statistics are shared with it. Data an older i kept under
workspaces/<first 32 hex digits of the SHA-256 of the path>/ is moved there on the next run.

Files i reads (a file that exists but is wrong stops the run with exit 2 and names the file):
  --config FILE or $I_CONFIG_DIR/config.json   the model: address, model name, key variable, limits (above)
  the "plugins" manifest named in it            native tools, hooks and provider run through a private i-bridge
  $I_CONFIG_DIR/approval.json    which tools run without asking, which never run, rules by tool and path
  $I_CONFIG_DIR/plugins.json     which agent features (modules) are on: profile and disabled list
  $I_CONFIG_DIR/bindings.json    modules bound to bridge workers instead of the built-in ones
  $I_CONFIG_DIR/prompts.json     your own system prompt file ("system") and compaction prompt file ("compact")
  $I_CONFIG_DIR/compact.json     when and how the conversation is compacted (read while compaction is on)
  $I_CONFIG_DIR/cache.json       prompt-cache mode, namespace, statistics file (read while the cache module is on)
  $I_CONFIG_DIR/skills.json      more skill folders, besides DIR/.agents/skills and DIR/.i/skills (SKILL.md each)
  $I_CONFIG_DIR/web.json         web_fetch and web_search settings
  $I_CONFIG_DIR/shell.json       {"sandbox": "on"|"off", "bwrap": "/usr/bin/bwrap"}: the shell tool's sandbox
  $I_CONFIG_DIR/provider.json    whether images go inline or as uploaded provider Files
  DIR/AGENTS.md                  project instructions
  $I_DATA_DIR/workspaces.json    the workspace ids; $I_DATA_DIR/workspaces/<id>/ memory and statistics
  DIR/.i/sessions/NAME/ (--session-name) or FILE (--session)   the saved conversation`;
