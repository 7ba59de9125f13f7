// What the sandbox must hide, keep read-only and let write, found on disk before each command (Node only).
// - Secrets: the person's credentials and browser profiles under HOME, and i's own folders (config, data, cache,
//   runtime: keys, approval settings, memory), where they exist. Hidden means an empty folder (or an empty file)
//   in their place inside the sandbox.
// - Git: the workspace's `.git` stays writable (git add, commit, branch, stash work) but its `hooks/` and `config`
//   are read-only, with `core.hooksPath` when it points into the workspace, and the same for submodules under
//   `.git/modules`: a hook or a `core.fsmonitor` planted there would run outside the sandbox on the person's next
//   git command. A linked worktree's git folders lie outside the workspace: they are made writable (objects, refs,
//   its index) only when they check out as this worktree's (the back-link git writes), hooks/config read-only again.
// - `.i/` (sessions and undo history) is read-only.
import { promises as fsp } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** Folders under HOME hidden inside the sandbox where they exist (Linux and macOS names). */
export const HIDDEN_HOME_DIRS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.password-store',
  '.local/share/keyrings',
  // browser profiles (cookies, saved passwords, tokens)
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  'snap/firefox',
  'snap/chromium',
  '.var/app/org.mozilla.firefox',
  '.var/app/com.google.Chrome',
  '.var/app/org.chromium.Chromium',
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Chromium',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
];
/** Files under HOME with tokens in them, hidden (an empty file in their place) where they exist. */
export const HIDDEN_HOME_FILES = ['.netrc', '.git-credentials', '.npmrc', '.pypirc', '.pgpass', '.vault-token'];

export const inside = (parent: string, path: string): boolean => {
  const rel = relative(parent, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const statOf = (path: string) => fsp.stat(path).catch(() => null);

/** The secrets that exist here, as folders and files to hide; a folder holding the workspace is left alone. */
export async function secretPaths(
  home: string | undefined,
  extra: readonly string[],
  workspace: string,
): Promise<{ dirs: string[]; files: string[] }> {
  const candidates = [
    ...(home ? [...HIDDEN_HOME_DIRS, ...HIDDEN_HOME_FILES].map((p) => join(home, p)) : []),
    ...extra.filter((p) => isAbsolute(p)),
  ];
  const dirs: string[] = [];
  const files: string[] = [];
  for (const path of candidates) {
    const st = await statOf(path);
    if (!st) continue;
    const real = await fsp.realpath(path).catch(() => path);
    if (inside(real, workspace) || inside(path, workspace)) continue; // hiding it would hide the workspace
    if (st.isDirectory()) dirs.push(path);
    else if (st.isFile()) files.push(path);
  }
  return { dirs, files };
}

export interface GitPaths {
  /** Folders outside the workspace that git must write (a linked worktree's git dir and the common dir). */
  writable: string[];
  /** Paths made read-only again inside the writable ones. */
  readOnly: string[];
  /** Notes for the card and result (a `.git` file that does not check out). */
  notes: string[];
  /** The workspace had a `.git` when the command started (else a repository it creates is checked after it). */
  existed: boolean;
}

const readText = (path: string) => fsp.readFile(path, 'utf8').catch(() => null);

/** A git dir git itself would accept: HEAD, objects/ and refs/ (or a commondir file pointing to them). */
async function looksLikeGitDir(dir: string): Promise<boolean> {
  const [head, objects, refs, common] = await Promise.all(
    ['HEAD', 'objects', 'refs', 'commondir'].map((n) => statOf(join(dir, n))),
  );
  return Boolean(head?.isFile() && ((objects?.isDirectory() && refs?.isDirectory()) || common?.isFile()));
}

/** `core.hooksPath` of a config file, if set (the last one wins, as in git); a `~/` path is left out (outside). */
function hooksPathOf(config: string): string | null {
  let section = '';
  let found: string | null = null;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (section === 'core' && kv && kv[1]!.toLowerCase() === 'hookspath') found = kv[2]!.replace(/^"(.*)"$/, '$1');
  }
  return found;
}

/** Protections for one git dir: its hooks/ (created empty when missing, so nothing can be planted), config. */
async function protectGitDir(dir: string, workspace: string, out: GitPaths): Promise<void> {
  const hooks = join(dir, 'hooks');
  const st = await fsp.lstat(hooks).catch(() => null);
  if (!st) await fsp.mkdir(hooks).catch(() => undefined); // git init makes it anyway; an empty one is harmless
  for (const path of [hooks, join(dir, 'config'), join(dir, 'config.worktree')])
    if (await fsp.lstat(path).catch(() => null)) out.readOnly.push(path);
  const config = await readText(join(dir, 'config'));
  const hooksPath = config !== null ? hooksPathOf(config) : null;
  if (hooksPath && !hooksPath.startsWith('~')) {
    const path = resolve(workspace, hooksPath);
    if (inside(workspace, path) && (await statOf(path))) out.readOnly.push(path);
  }
}

const MAX_SUBMODULE_DIRS = 64;

/** Git dirs of submodules under `<gitDir>/modules` (nested too), bounded. */
async function submoduleGitDirs(gitDir: string): Promise<string[]> {
  const found: string[] = [];
  const queue = [join(gitDir, 'modules')];
  while (queue.length > 0 && found.length < MAX_SUBMODULE_DIRS) {
    const dir = queue.shift()!;
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const path = join(dir, e.name);
      if (await looksLikeGitDir(path)) {
        found.push(path);
        queue.push(join(path, 'modules'));
      } else queue.push(path); // submodule names may hold slashes
      if (found.length >= MAX_SUBMODULE_DIRS) break;
    }
  }
  return found;
}

export async function gitPaths(workspace: string, allowGitWrites: boolean): Promise<GitPaths> {
  const out: GitPaths = { writable: [], readOnly: [], notes: [], existed: false };
  const dotGit = join(workspace, '.git');
  const st = await fsp.lstat(dotGit).catch(() => null);
  if (!st) return out;
  out.existed = true;
  let gitDir = dotGit;
  let common = dotGit;
  if (st.isFile()) {
    // A linked worktree (or a submodule checkout): `.git` says `gitdir: PATH`. Its folders are made writable only
    // when they are what git made for this worktree, so a planted `.git` file cannot open another folder.
    const text = (await readText(dotGit)) ?? '';
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    const target = m ? await fsp.realpath(resolve(workspace, m[1]!)).catch(() => null) : null;
    if (!target || !(await looksLikeGitDir(target))) {
      out.notes.push(`.git names no git folder (${m ? m[1] : 'no gitdir line'}): git cannot write here`);
      return out;
    }
    gitDir = target;
    const commondir = (await readText(join(gitDir, 'commondir')))?.trim();
    common = commondir ? await fsp.realpath(resolve(gitDir, commondir)).catch(() => gitDir) : gitDir;
    if (!inside(workspace, gitDir)) {
      const back = (await readText(join(gitDir, 'gitdir')))?.trim();
      const worktree = (await readText(join(gitDir, 'config')))?.match(/^\s*worktree\s*=\s*(.+?)\s*$/m)?.[1];
      const backOk = back !== undefined && resolve(dirname(dotGit), back) === dotGit;
      const worktreeOk = worktree !== undefined && resolve(gitDir, worktree) === workspace;
      if (!backOk && !worktreeOk) {
        out.notes.push(
          `.git points to ${gitDir}, which does not name this folder as its worktree: git cannot write there`,
        );
        return out;
      }
      out.writable.push(gitDir);
      if (!inside(gitDir, common) && !inside(workspace, common)) out.writable.push(common);
    }
  } else if (!st.isDirectory()) return out;
  if (allowGitWrites) return out;
  await protectGitDir(common, workspace, out);
  for (const sub of await submoduleGitDirs(common)) await protectGitDir(sub, workspace, out);
  // A linked worktree's own folder holds no hooks; only its config.worktree (read when the common config says so).
  if (gitDir !== common && (await fsp.lstat(join(gitDir, 'config.worktree')).catch(() => null)))
    out.readOnly.push(join(gitDir, 'config.worktree'));
  out.readOnly = [...new Set(out.readOnly)];
  return out;
}

// Config keys that make git run a program (or read another config that could): planted in a repository the command
// created, they would run outside the sandbox on the person's next git command there.
const RUNS_PROGRAM: Array<[RegExp, RegExp]> = [
  [/^core$/, /^(fsmonitor|hookspath|sshcommand|editor|pager|askpass|gitproxy|worktree)$/],
  [/^(filter|diff|merge|credential|sequence|gpg|pager|include|includeif|uploadpack|receive|interactive)$/, /.*/],
  [/^remote$/, /^(uploadpack|receivepack|vcs|proxy)$/],
];

/**
 * After a command that started without a `.git` and left one: disables what would run outside the sandbox — each
 * hook other than git's `*.sample` files is renamed to `<name>.disabled-by-i`, each config line that makes git run a
 * program (or an alias starting with "!") is commented out — and names what it disabled.
 */
export async function disarmNewRepository(workspace: string): Promise<string[]> {
  const gitDir = join(workspace, '.git');
  const st = await fsp.lstat(gitDir).catch(() => null);
  if (!st?.isDirectory()) return [];
  const disabled: string[] = [];
  const hooks = join(gitDir, 'hooks');
  for (const name of await fsp.readdir(hooks).catch(() => [] as string[])) {
    if (name.endsWith('.sample') || name.endsWith('.disabled-by-i')) continue;
    await fsp.rename(join(hooks, name), join(hooks, `${name}.disabled-by-i`)).then(
      () => disabled.push(`.git/hooks/${name}`),
      () => disabled.push(`.git/hooks/${name} (could not be renamed: remove it yourself)`),
    );
  }
  const configFile = join(gitDir, 'config');
  const config = await readText(configFile);
  if (config !== null) {
    let section = '';
    let continued = false;
    let changed = false;
    const lines = config.split('\n').map((line) => {
      const t = line.trim();
      if (continued) {
        continued = /\\\s*$/.test(t);
        changed = true;
        return `# disabled by i: ${line}`;
      }
      const head = /^\[\s*([A-Za-z0-9.-]+)/.exec(t);
      if (head) {
        section = head[1]!.toLowerCase().split('.')[0]!;
        return line;
      }
      const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(=\s*(.*))?$/.exec(t);
      if (!kv) return line;
      const key = kv[1]!.toLowerCase();
      const value = kv[3] ?? '';
      const bad =
        RUNS_PROGRAM.some(([s, k]) => s.test(section) && k.test(key)) || (section === 'alias' && /^"?\s*!/.test(value));
      if (!bad) return line;
      disabled.push(`.git/config ${section}.${key}`);
      continued = /\\\s*$/.test(t);
      changed = true;
      return `# disabled by i: ${line}`;
    });
    if (changed) await fsp.writeFile(configFile, lines.join('\n'));
  }
  return disabled;
}

/** The workspace's `.i` folder when it exists (read-only inside the sandbox). */
export async function undoFolder(workspace: string): Promise<string[]> {
  const path = join(workspace, '.i');
  return (await fsp.lstat(path).catch(() => null)) ? [path] : [];
}
