// The one workspace write policy every writer applies (built-in write/edit, plugin fs.write, and any later tool):
// it runs on the NORMALISED path (path-policy.ts), so 'notes.md/./../.git/config' is judged as '.git/config'.
// Three outcomes (design and the list's reasons: CONTEXT.md, "Protected paths"):
// - inside `.git` (any segment, so nested repositories too, and `.git` itself as a gitfile): refused with
//   E_PATH_PROTECTED in every approval mode, unless the workspace allows it (`allowGitWrites`). Git runs commands
//   named in .git/config (core.fsmonitor, core.pager, aliases) and .git/hooks on the next `git status`;
// - files that make a tool run code when the folder is opened or used (editor settings, dev containers, direnv,
//   hook managers, CI, git attributes/modules, package-manager rc files): allowed, but the person is always asked,
//   with the reason of its class;
// - inside `.i` (any segment: a nested folder can be a workspace of its own): refused in every approval mode, yolo
//   included, and `allowGitWrites` does not unlock it. Headless `i` keeps each workspace's session logs and undo
//   history there (.i/sessions/NAME/{session,checkpoints}); an agent that could write them could hide its own writes
//   from `i --changes` and make `i --revert` miss them. The stores write with their own Node fs, never through this;
// - everything else: the approval mode decides.
// Names are compared case-folded and NFC (case-insensitive file systems: '.GIT/config' is '.git/config'), with
// trailing dots and spaces dropped (Windows strips them; path-policy already refuses them, this is a second line)
// and Windows 8.3 short names ('GIT~1') read as the long name they may alias. A name with a bidi, zero-width or
// C1 character is refused on write (E_PATH_INVISIBLE_CHAR): HFS+ ignores some of them ('.g\u200cit' opens
// '.git'), and a person cannot see them on a card.
import { HarnessError, codePointLabel, escapeControls, findInvisibleChar, quoteUntrusted } from '../errors';
import { normalizeWorkspacePath, type WorkspacePath } from './path-policy';
import type { WorkspaceFs } from './workspace-fs';

export interface WritePolicy {
  /** The workspace's "Allow the agent to write inside .git" setting (headless: --allow-git-writes). Off by default. */
  readonly allowGitWrites: boolean;
}

export const DEFAULT_WRITE_POLICY: WritePolicy = Object.freeze({ allowGitWrites: false });

/** Why a write always asks: one class per kind of tool that runs code from the file. */
export type AskReason =
  'vscode' | 'idea' | 'devcontainer' | 'envrc' | 'git-hooks' | 'ci' | 'git-files' | 'package-manager';

/** English sentences for the model, CLIs and errors; the app shows its own translations of the same classes. */
export const ASK_REASON_TEXT: Readonly<Record<AskReason, string>> = {
  vscode: 'opening this folder in VS Code applies settings and tasks from this file, which can run programs',
  idea: 'opening this folder in a JetBrains IDE applies run configurations and settings from this file, which can run programs',
  devcontainer: 'opening this folder in a dev container runs the commands this file names',
  envrc: 'direnv runs this file as a shell script when a terminal enters the folder',
  'git-hooks': 'git hook managers run the commands in this file on commit or push',
  ci: "CI runs the commands in this file, with the repository's secrets, when it is pushed",
  'git-files':
    'git reads this file on checkout and diff: it can name filters and submodule URLs that run or fetch code',
  'package-manager':
    'npm and yarn read this file on every command: it can change the registry or the shell that runs scripts',
};

// Folders whose every file is in a class, matched as any segment of the path.
const FOLDERS: ReadonlyArray<readonly [string, AskReason]> = [
  ['.vscode', 'vscode'],
  ['.idea', 'idea'],
  ['.devcontainer', 'devcontainer'],
  ['.husky', 'git-hooks'],
  ['.githooks', 'git-hooks'],
  ['.git-hooks', 'git-hooks'],
];
// Single files, matched as the last segment.
const FILES: ReadonlyArray<readonly [string, AskReason]> = [
  ['.devcontainer.json', 'devcontainer'],
  ['.envrc', 'envrc'],
  ['.pre-commit-config.yaml', 'git-hooks'],
  ['lefthook.yml', 'git-hooks'],
  ['.gitattributes', 'git-files'],
  ['.gitmodules', 'git-files'],
  ['.npmrc', 'package-manager'],
  ['.yarnrc', 'package-manager'],
  ['.yarnrc.yml', 'package-manager'],
];
const GIT = '.git';
/** The folder where headless `i` keeps a workspace's sessions and checkpoints (web/core/headless, DIR/.i/sessions). */
export const I_STATE_FOLDER = '.i';
const LONG_NAMES = [GIT, I_STATE_FOLDER, '.github', ...FOLDERS.map(([n]) => n), ...FILES.map(([n]) => n)];

// The base Windows derives an 8.3 alias from: leading dots dropped, extension cut, dots and spaces removed.
const shortBase = (name: string): string => {
  const bare = name.replace(/^\.+/, '');
  const dot = bare.lastIndexOf('.');
  return (dot > 0 ? bare.slice(0, dot) : bare).replace(/[. ]/g, '').toLowerCase();
};
// 'GIT~1', 'GITATT~1', 'PRE-CO~1.YAM': at most 6 characters, '~', digits, an optional extension of up to 3.
const SHORT_NAME = /^([^~.]{1,6})~[0-9]{1,6}(\.[^.]{0,3})?$/;

/** A name as the protection check compares it: NFC, lower case, no trailing dots or spaces, 8.3 alias resolved. */
export function foldName(name: string): string {
  const folded = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[. ]+$/, '');
  const short = SHORT_NAME.exec(folded);
  if (short) {
    const stem = short[1]!;
    // Windows may also shorten to 2 characters + 4 hex digits of a hash ('GI1A2B~1'); only the readable form is
    // resolved, by prefix, so an alias of any protected name counts as that name.
    const long = LONG_NAMES.find(
      (n) => shortBase(n).startsWith(stem) && stem.length >= Math.min(2, shortBase(n).length),
    );
    if (long) return long;
  }
  return folded;
}

export type WriteClass = { kind: 'git' } | { kind: 'i-state' } | { kind: 'ask'; reason: AskReason } | { kind: 'plain' };

/** What the policy says about a normalised path, whatever the setting. */
export function classifyWritePath(path: WorkspacePath): WriteClass {
  const names = path.segments.map(foldName);
  if (names.includes(GIT)) return { kind: 'git' };
  if (names.includes(I_STATE_FOLDER)) return { kind: 'i-state' };
  const last = names[names.length - 1];
  for (let i = 0; i < names.length; i++) {
    const folder = FOLDERS.find(([n]) => n === names[i]);
    // A folder only counts as a folder: '.vscode' as a plain file runs nothing.
    if (folder && i < names.length - 1) return { kind: 'ask', reason: folder[1] };
    if (names[i] === '.github' && names[i + 1] === 'workflows' && i + 1 < names.length - 1)
      return { kind: 'ask', reason: 'ci' };
  }
  const file = FILES.find(([n]) => n === last);
  return file ? { kind: 'ask', reason: file[1] } : { kind: 'plain' };
}

/** A write the policy let through: the path as it will be written, and whether the person must be asked. */
export interface WriteTarget {
  /** The argument as the writer received it. */
  raw: string;
  /** The normalised workspace-relative path that will be written. */
  path: WorkspacePath;
  /** Set when the write must be approved by a person in every mode but explicit yolo. */
  ask?: AskReason;
  /**
   * The workspace-relative path the write really reaches through symbolic links (`fs.realPath`, Node), present only
   * when it differs from `path`. Approval rules judge it too (web/core/approval/rules.ts).
   */
  realPath?: string;
}

/**
 * E_PATH_PROTECTED for a write into `.i`: the session logs and undo history of headless `i`. Not unlocked by any
 * setting: a write there could hide the agent's own writes from `i --changes` and `i --revert`.
 */
export function iStatePathError(raw: string, path: WorkspacePath, throughLink?: string): HarnessError {
  const where =
    throughLink === undefined ? 'it is inside .i' : `it leads through a symbolic link to ${throughLink}, inside .i`;
  return new HarnessError(
    'E_PATH_PROTECTED',
    `Writing ${shownWritePath(raw, path.path)} is refused: ${where}, where i keeps this workspace's session logs and undo history (checkpoints), and the agent may not change them, so that every write it makes stays listed by i --changes and can be reverted. ` +
      'No setting or approval mode allows it. Write elsewhere (skills go in .agents/skills); reading .i stays allowed.',
    { path: path.path, protected: I_STATE_FOLDER },
  );
}

/** The refusal of a protected class under `policy`, or null when the class may be written. */
function refusalOf(
  found: WriteClass,
  policy: WritePolicy,
  raw: string,
  path: WorkspacePath,
  throughLink?: string,
): HarnessError | null {
  if (found.kind === 'i-state') return iStatePathError(raw, path, throughLink);
  if (found.kind === 'git' && !policy.allowGitWrites) return protectedPathError(raw, path, throughLink);
  return null;
}

export function protectedPathError(raw: string, path: WorkspacePath, throughLink?: string): HarnessError {
  const where =
    throughLink === undefined ? 'it is inside .git' : `it leads through a symbolic link to ${throughLink}, inside .git`;
  return new HarnessError(
    'E_PATH_PROTECTED',
    `Writing ${shownWritePath(raw, path.path)} is refused: ${where}, and git runs commands named in .git/config and .git/hooks, so a write there can run code on the next git command. ` +
      'Leave .git to the person, or allow it for this workspace: turn on "Allow the agent to write inside .git" in Settings → Workspaces (headless i: --allow-git-writes).',
    { path: path.path },
  );
}

/**
 * Checks a path about to be written or created. Throws the path policy's E_PATH_* codes, E_PATH_INVISIBLE_CHAR for
 * a name with a bidi, zero-width or C1 character, E_PATH_PROTECTED for `.git` unless the policy allows it, and
 * E_PATH_PROTECTED for `.i` always.
 */
export function checkWriteTarget(raw: unknown, policy: WritePolicy = DEFAULT_WRITE_POLICY): WriteTarget {
  const path = normalizeWorkspacePath(raw);
  const text = raw as string;
  const invisible = findInvisibleChar(text);
  if (invisible) {
    throw new HarnessError(
      'E_PATH_INVISIBLE_CHAR',
      `The path ${quoteUntrusted(text)} contains the invisible or direction-changing character ${codePointLabel(invisible.codePoint)}, so a person cannot read which file it names. Choose a name without it.`,
      { path: quoteUntrusted(text), codePoint: codePointLabel(invisible.codePoint) },
    );
  }
  const found = classifyWritePath(path);
  const refused = refusalOf(found, policy, text, path);
  if (refused) throw refused;
  return found.kind === 'ask' ? { raw: text, path, ask: found.reason } : { raw: text, path };
}

/**
 * `checkWriteTarget`, then the same judgement of the path the write really reaches on a backend that follows
 * symbolic links (`fs.realPath`, Node): a link `notes -> .git` makes `notes/config` E_PATH_PROTECTED, and a link
 * into `.vscode` makes the write always ask. What is shown and written stays the normalised path.
 */
export async function judgeWrite(
  fs: WorkspaceFs,
  raw: unknown,
  policy: WritePolicy = writePolicyOf(fs),
): Promise<WriteTarget> {
  const target = checkWriteTarget(raw, policy);
  if (!fs.realPath) return target;
  const real = await fs.realPath(target.path.path);
  if (real === target.path.path) return target;
  const found = classifyWritePath(normalizeWorkspacePath(real));
  const refused = refusalOf(found, policy, target.raw, target.path, real);
  if (refused) throw refused;
  return found.kind === 'ask' && !target.ask
    ? { ...target, ask: found.reason, realPath: real }
    : { ...target, realPath: real };
}

/**
 * How a person is shown the path: the normalised path alone, or `"raw" → normalised` when the writer sent another
 * form. The raw form is quoted bounded (a 143-character detour shows its start and length); the normalised path is
 * shown in full, as it is what will be written.
 */
export function shownWritePath(raw: string, normalised: string): string {
  // Reads may name files whose names carry bidi or zero-width characters (writes refuse them): shown escaped, so
  // 'report\u202Efdp.exe' can never display as 'reportexe.pdf'.
  const visible = escapeControls(normalised, { keepLayout: false });
  return raw === normalised ? visible : `${quoteUntrusted(raw, 60)} → ${visible}`;
}

/**
 * A path argument as a person should read it on a card before anything ran: normalised (`"raw" → path` when it
 * differs), or the raw text quoted and bounded when the path policy refuses it (the call's result says why).
 */
export function shownPathArgument(raw: string): string {
  try {
    return shownWritePath(raw, normalizeWorkspacePath(raw, { allowRoot: true }).path || '.');
  } catch {
    return quoteUntrusted(raw, 60);
  }
}

const POLICY = Symbol.for('i.workspace-write-policy');
type Protected = WorkspaceFs & { readonly [POLICY]?: { policy: WritePolicy; inner: WorkspaceFs } };

/** The write policy an fs was wrapped with, or the default (git protected) for one that never was. */
export function writePolicyOf(fs: WorkspaceFs): WritePolicy {
  return (fs as Protected)[POLICY]?.policy ?? DEFAULT_WRITE_POLICY;
}

/**
 * Refuses removing `raw` when the policy protects it (E_PATH_PROTECTED). `remove` acts on a link itself, so only the
 * path's folder is resolved through links. Removing a file with an unreadable name stays possible (cleanup).
 */
export async function judgeRemove(
  fs: WorkspaceFs,
  raw: string,
  policy: WritePolicy = writePolicyOf(fs),
): Promise<void> {
  const p = normalizeWorkspacePath(raw);
  const refusal = (real: string, throughLink?: string) =>
    refusalOf(classifyWritePath(normalizeWorkspacePath(real)), policy, raw, p, throughLink);
  const direct = refusal(p.path);
  if (direct) throw direct;
  if (!fs.realPath || p.segments.length < 2) return;
  const folder = await fs.realPath(p.segments.slice(0, -1).join('/'));
  const real = folder === '' ? p.segments.at(-1)! : `${folder}/${p.segments.at(-1)!}`;
  const linked = refusal(real, real);
  if (linked) throw linked;
}

/**
 * `fs` carrying the write policy of `from`, for a wrapper whose every write goes through `from` (the checkpoint
 * recorder): tools read the policy with writePolicyOf, and each path is judged once, by `from`, not again on the way
 * in. A `from` that was never protected gives no policy to trust: `fs` is guarded with the default one.
 */
export function withWritePolicyOf(fs: WorkspaceFs, from: WorkspaceFs): WorkspaceFs {
  const carried = (from as Protected)[POLICY];
  if (!carried) return protectWrites(fs, DEFAULT_WRITE_POLICY);
  Object.defineProperty(fs, POLICY, { value: { policy: carried.policy, inner: fs } });
  return fs;
}

/**
 * A WorkspaceFs whose writeText, writeBytes, mkdir and remove refuse what the policy refuses, so a writer that forgets
 * `checkWriteTarget` still cannot touch `.git` or `.i`. Applied where the agent's and plugins' fs is composed (app agent,
 * headless i), over either backend. It does not ask for anything: always-ask files are the writers' business (the
 * approval gate, the plugin write approval). Removing a file with an unreadable name stays possible (cleanup).
 * Wrapping a wrapped fs replaces its policy (a setting changed between turns).
 */
export function protectWrites(fs: WorkspaceFs, policy: WritePolicy): WorkspaceFs {
  const base = (fs as Protected)[POLICY]?.inner ?? fs;
  const frozen = Object.freeze({ allowGitWrites: policy.allowGitWrites });
  // Every member is listed (typed as WorkspaceFs), so a new member of the port fails typecheck here until it is
  // decided whether it writes.
  // A backend that follows links also has its real target judged (judgeWrite); `remove` acts on a link itself, so
  // only its folder is resolved.
  const guard = (path: string) => judgeWrite(base, path, frozen);
  const guardRemove = (path: string) => judgeRemove(base, path, frozen);
  const wrapped: WorkspaceFs = {
    get access() {
      return base.access;
    },
    get rootName() {
      return base.rootName;
    },
    readBytes: (path, options) => base.readBytes(path, options),
    readText: (path, options) => base.readText(path, options),
    list: (path, options) => base.list(path, options),
    stat: (path) => base.stat(path),
    async writeText(path, text, options) {
      await guard(path);
      return base.writeText(path, text, options);
    },
    async writeBytes(path, data, options) {
      await guard(path);
      return base.writeBytes(path, data, options);
    },
    async mkdir(path) {
      // The root ('' or '.') may be "created"; anything else is a write.
      if (path !== '' && path !== '.') await guard(path);
      return base.mkdir(path);
    },
    async remove(path, options) {
      await guardRemove(path);
      return base.remove(path, options);
    },
    ...(base.realPath ? { realPath: (path: string) => base.realPath!(path) } : {}),
  };
  Object.defineProperty(wrapped, POLICY, { value: { policy: frozen, inner: base } });
  return wrapped;
}
