// Undo for what a command changes (issue 31): the `CommandChanges` of headless `i` over a real folder. Node-only,
// reached through ./node.ts.
//
// A shadow git repository outside what is recorded (the session's checkpoints folder, DIR/.i/sessions/NAME/
// checkpoints/shadow.git, with the workspace as its work tree) keeps a snapshot of the workspace in its index:
// `git add -A` before the command and again after it. Between two snapshots git re-reads only the files whose stat
// changed (its index is the stat cache, kept from one command to the next) and stores their contents as objects, so
// the "before" of a file the command then modifies or deletes is already kept when it runs. The two indexes are read
// here (git-index.ts) and compared by object id; the contents of each changed file are read back with
// `git cat-file --batch` and appended to the session's checkpoint records like a tool's write (`tool` the calling
// tool's name, its call id and step, before/after content-addressed by SHA-256), so `--changes`, `--revert` and the
// redo treat them alike. Measured against a stat walk of our own, and why this one: CONTEXT.md.
//
// Git's rules decide what is recorded: files ignored by the workspace's .gitignore files, its .git/info/exclude and
// the person's global excludes file are not; `.git` never is; `.i/` (undo history, sessions) is excluded. Git runs
// with no system or global configuration (no fsmonitor hook, no filters, no line-ending conversion: the shadow's
// info/attributes unsets them for every path, so contents are stored byte for byte), and with no GIT_* variable of
// the caller's environment.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { devNull } from 'node:os';
import { join } from 'node:path';
import {
  HarnessError,
  normalizeWorkspacePath,
  toErrorData,
  type CommandChanges,
  type CommandWatch,
} from '../contracts';
import type { CommandChangeSummary } from '../contracts';
import { EMPTY_BLOB, indexEntryCount, MODE_GITLINK, MODE_SYMLINK, parseGitIndex, type IndexEntry } from './git-index';
import type { CheckpointEvent } from './recorder';
import { ABSENT, type CheckpointRecord, type CheckpointStore, type NewRecord } from './types';

/** Past these, a command's changes are not recorded: `begin` says so before the command runs (CONTEXT.md). */
export interface CommandLimits {
  /** Files git would snapshot (not ignored). */
  files: number;
  /** Their total size. */
  totalBytes: number;
  /** The largest one file may be. */
  fileBytes: number;
}

export const COMMAND_LIMITS: CommandLimits = {
  files: 50_000,
  totalBytes: 1024 * 1024 * 1024,
  fileBytes: 32 * 1024 * 1024,
};
export const E_CHECKPOINT_COMMAND_UNTRACKED = 'E_CHECKPOINT_COMMAND_UNTRACKED';

export interface CommandChangesOptions {
  store: CheckpointStore;
  session: string;
  /** The turn the records belong to (TurnCheckpoints.turn). */
  turn: number;
  /** The workspace folder (its real path): the work tree. */
  root: string;
  /** The shadow repository's git dir, outside what is recorded (headless: the session's checkpoints folder). */
  shadowDir: string;
  limits?: Partial<CommandLimits>;
  /** Told about every record and every pruning, like the recorder's events. */
  onEvent?: (event: CheckpointEvent) => void;
  now?: () => number;
  /** The git program (default `git` on PATH). */
  git?: string;
}

export interface CommandRecorder {
  /** TurnDeps.checkpoints.commandChangesFor: the CommandChanges one tool call gets. */
  commandChangesFor(call: { id: string; name: string; step: number }): CommandChanges;
  /**
   * Drops the shadow's objects no snapshot needs any more (every version of every file a command changed accumulates
   * there; the checkpoint store keeps what undo needs). Run between turns, when no command of the session runs.
   */
  tidy(): Promise<void>;
}

/** Snapshots of one shadow repository run one at a time, whoever asks (concurrent commands of a turn included). */
const queues = new Map<string, Promise<unknown>>();
function serial<T>(key: string, task: () => Promise<T>): Promise<T> {
  const prior = queues.get(key) ?? Promise.resolve();
  const run = prior.then(task, task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/**
 * `.i/` (the undo history and sessions of `i`) is excluded by the shadow's info/exclude; this pathspec keeps it out of
 * the count too. (`git add` refuses a pathspec naming an ignored path, so it gets none; a recorded path under `.i/`
 * is dropped when the snapshots are compared, should a .gitignore re-include it.)
 */
const EXCLUDE_I = ':(top,exclude).i';
/** Unsets, for every path, what would make git store other bytes than the file's (line endings, filters). */
const ATTRIBUTES = '* -text -filter -ident -working-tree-encoding\n';
const CONFIG = `[core]
\tuntrackedCache = true
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\tquotePath = false
\tsymlinks = true
[index]
\tversion = 4
[gc]
\tauto = 0
`;
/** Loose objects the shadow may hold before `tidy` prunes what no snapshot names. */
const TIDY_LOOSE_KIB = 64 * 1024;

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

interface Snapshot {
  entries: Map<string, IndexEntry>;
}

type Taken = { ok: true; snapshot: Snapshot } | { ok: false; untracked: { code: string; message: string } };

export function createCommandRecorder(options: CommandChangesOptions): CommandRecorder {
  const { store, session, turn, root, shadowDir } = options;
  const limits = { ...COMMAND_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const gitProgram = options.git ?? 'git';
  const indexFile = join(shadowDir, 'index');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_')) env[k] = v;
  Object.assign(env, {
    GIT_DIR: shadowDir,
    GIT_WORK_TREE: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    // Command-scope settings: a workspace owned by another user is fine here (git's "dubious ownership" check guards
    // against running a foreign repository's config and hooks; the shadow is ours, and its attributes neutralise the
    // work tree's filters), and no fsmonitor hook runs whatever a configuration says.
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'safe.directory',
    GIT_CONFIG_VALUE_0: '*',
    GIT_CONFIG_KEY_1: 'core.fsmonitor',
    GIT_CONFIG_VALUE_1: 'false',
  });

  const git = (args: string[], input?: string, okCodes?: number[]) =>
    runGit(gitProgram, args, env, root, input, okCodes);

  let prepared: Promise<void> | undefined;
  /** Makes the shadow repository once (kept across turns) and refreshes its exclude file and alternates. */
  const prepare = () =>
    (prepared ??= (async () => {
      if (
        !(await fsp.stat(join(shadowDir, 'HEAD')).then(
          () => true,
          () => false,
        ))
      ) {
        await fsp.mkdir(shadowDir, { recursive: true });
        const plain = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'GIT_DIR' && k !== 'GIT_WORK_TREE'));
        await runGit(gitProgram, ['init', '--bare', '--quiet', '--template=', shadowDir], plain, root);
        await fsp.appendFile(join(shadowDir, 'config'), CONFIG);
      }
      await fsp.mkdir(join(shadowDir, 'info'), { recursive: true });
      await fsp.mkdir(join(shadowDir, 'objects', 'info'), { recursive: true });
      // The workspace's own excludes count like its .gitignore files (written only when changed: git's untracked
      // cache starts over when this file changes).
      const own = await fsp.readFile(join(root, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
      await writeIfChanged(join(shadowDir, 'info', 'exclude'), `/.i/\n${own}`);
      await writeIfChanged(join(shadowDir, 'info', 'attributes'), ATTRIBUTES);
      // Contents the workspace's repository holds already are not stored twice (it must use SHA-1 like the shadow).
      const objects = join(root, '.git', 'objects');
      const config = await fsp.readFile(join(root, '.git', 'config'), 'utf8').catch(() => null);
      const alternates = join(shadowDir, 'objects', 'info', 'alternates');
      if (config !== null && !/objectformat\s*=\s*sha256/i.test(config) && !objects.includes('\n'))
        await writeIfChanged(alternates, `${objects}\n`);
      else await fsp.rm(alternates, { force: true });
    })().catch((error: unknown) => {
      prepared = undefined;
      throw error;
    }));

  const untracked = (message: string) => ({
    ok: false as const,
    untracked: { code: E_CHECKPOINT_COMMAND_UNTRACKED, message },
  });
  const notRecorded = 'Its changes will not be recorded: --changes will not list them and --revert will not undo them.';

  /** The first verdict of `limits` that fails, as a sentence; null when within them. */
  const overLimits = (count: number, total: number, largest: { path: string; size: number } | null) => {
    if (count > limits.files)
      return `The workspace has more than ${limits.files} files that are not ignored (${count}), more than a command's changes can be recorded for. ${notRecorded} Add folders such as build output or dependencies to .gitignore to bring it under the limit.`;
    if (largest && largest.size > limits.fileBytes)
      return `${largest.path} is ${mib(largest.size)}, more than the ${mib(limits.fileBytes)} one file may have for a command's changes to be recorded. ${notRecorded} Add it to .gitignore to let the changes of commands be recorded.`;
    if (total > limits.totalBytes)
      return `The files of the workspace that are not ignored hold ${mib(total)}, more than the ${mib(limits.totalBytes)} a command's changes can be recorded for. ${notRecorded} Add large files or folders to .gitignore to bring it under the limit.`;
    return null;
  };

  /**
   * Without a snapshot to start from (or one past the limits), the files git would take are counted and measured
   * before anything is stored, so a huge workspace is refused without being copied into the shadow first.
   */
  const precheck = async (): Promise<string | null> => {
    const listed = await git(['ls-files', '-z', '-c', '-o', '--exclude-standard', '--', '.', EXCLUDE_I]);
    const paths = listed
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== '' && !p.endsWith('/'));
    if (paths.length > limits.files) return overLimits(paths.length, 0, null);
    let total = 0;
    let largest: { path: string; size: number } | null = null;
    for (let i = 0; i < paths.length; i += 64) {
      const sizes = await Promise.all(
        paths.slice(i, i + 64).map((p) =>
          fsp.lstat(join(root, p)).then(
            (s) => (s.isFile() ? s.size : 0),
            () => 0,
          ),
        ),
      );
      sizes.forEach((size, k) => {
        total += size;
        if (!largest || size > largest.size) largest = { path: paths[i + k]!, size };
      });
    }
    return overLimits(paths.length, total, largest);
  };

  /**
   * The first snapshot also takes the files the workspace's own repository tracks although a .gitignore matches them
   * (added with `git add -f`: a committed `dist/`): for its `git status` they are not ignored, so not for undo either.
   * Once in the shadow index, `git add -A` keeps following them. Files it starts tracking later are not added.
   */
  const trackedButIgnored = async () => {
    const own = await fsp.readFile(join(root, '.git', 'index')).catch(() => null);
    if (!own) return;
    let paths: string[];
    try {
      paths = parseGitIndex(new Uint8Array(own))
        .filter((e) => e.utf8 && e.mode !== MODE_GITLINK && !(e.path === '.i' || e.path.startsWith('.i/')))
        .map((e) => e.path);
    } catch {
      return; // an index this reader does not know (a newer version): git's own rules alone
    }
    if (paths.length === 0) return;
    const ignored = (await git(['check-ignore', '-z', '--stdin', '--no-index'], `${paths.join('\0')}\0`, [0, 1]))
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
    const present: string[] = [];
    for (const p of ignored)
      if (
        await fsp.lstat(join(root, p)).then(
          (st) => st.isFile() || st.isSymbolicLink(),
          () => false,
        )
      )
        present.push(p);
    if (present.length > 0)
      await git(
        ['--literal-pathspecs', 'add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'],
        `${present.join('\0')}\0`,
      );
  };

  /** The size of an entry git smudged (racily clean: its size says 0), asked of the file system. */
  const smudgedSize = (e: IndexEntry) =>
    fsp.lstat(join(root, e.path)).then(
      (s) => s.size,
      () => 0,
    );

  /** The shadow index read: its entries by path, and the verdict of the limits on them. */
  const readIndex = async (bytes: Uint8Array) => {
    const entries = new Map<string, IndexEntry>();
    let total = 0;
    let files = 0;
    let largest: { path: string; size: number } | null = null;
    for (const e of parseGitIndex(bytes)) {
      entries.set(e.path, e);
      if (e.mode === MODE_GITLINK) continue;
      files++;
      const size = e.size !== 0 || e.oid === EMPTY_BLOB ? e.size : await smudgedSize(e);
      total += size;
      if (!largest || size > largest.size) largest = { path: e.path, size };
    }
    return { entries, over: overLimits(files, total, largest) };
  };
  /** The last index read, kept to skip reading it again when git did not change it. */
  let last: { bytes: Buffer; entries: Map<string, IndexEntry>; over: string | null } | undefined;

  /**
   * `git add -A` into the shadow index and that index read back: the workspace as it is now. Before a command
   * (`judge`) past the limits it is refused; after one, what the command made is taken whatever its size (the files
   * past the size of one file are left out when recorded) and the next command counts afresh.
   */
  const take = (judge: boolean): Promise<Taken> =>
    serial(shadowDir, async () => {
      await prepare();
      // Counted afresh when there is no snapshot to start from (this process read none within the limits, and the
      // index is missing or past the file count).
      const count = last && !last.over ? 0 : await readHead(indexFile).then((h) => (h ? indexEntryCount(h) : null));
      if (judge && (count === null || count > limits.files)) {
        const over = await precheck();
        if (over) return untracked(over);
      }
      if (count === null) await trackedButIgnored();
      await git(['add', '-A']);
      const bytes = await fsp.readFile(indexFile);
      // Nothing changed since the last snapshot (git left its index as it was): the last reading stands.
      if (!last || !last.bytes.equals(bytes)) last = { bytes, ...(await readIndex(bytes)) };
      const { entries, over } = last;
      if (over) {
        // The next command counts afresh before adding anything (precheck) instead of re-adding a tree this big.
        await fsp.rm(indexFile, { force: true });
        last = undefined;
        if (judge) return untracked(over);
      }
      return { ok: true, snapshot: { entries } };
    });

  const failedSnapshot = (error: unknown) => {
    const e = toErrorData(error, 'E_CHECKPOINT_FAILED');
    const missing = e.code === 'E_CHECKPOINT_NO_GIT';
    return {
      code: missing ? e.code : 'E_CHECKPOINT_FAILED',
      message: missing
        ? e.message
        : `The workspace could not be snapshotted before the command (${e.message}). ${notRecorded}`,
    };
  };

  const commandChangesFor = (call: { id: string; name: string; step: number }): CommandChanges => ({
    async begin(): Promise<CommandWatch> {
      const since = (await store.list(session)).at(-1)?.seq ?? -1;
      let taken: Taken;
      try {
        taken = await take(true);
      } catch (error) {
        taken = { ok: false, untracked: failedSnapshot(error) };
      }
      if (!taken.ok) {
        const { untracked: why } = taken;
        return { untracked: why, finish: async () => ({ created: [], modified: [], deleted: [] }) };
      }
      const before = taken.snapshot;
      let finished: Promise<CommandChangeSummary> | undefined;
      return {
        finish: () => (finished ??= serialRecord(call, before, since)),
      };
    },
  });

  /** After the command: the second snapshot, compared with the first, and each change recorded. */
  const serialRecord = async (
    call: { id: string; name: string; step: number },
    before: Snapshot,
    since: number,
  ): Promise<CommandChangeSummary> => {
    let after: Taken;
    try {
      after = await take(false);
    } catch (error) {
      throw new HarnessError(
        'E_CHECKPOINT_FAILED',
        `The changes of the command could not be recorded for undo: the workspace could not be snapshotted after it (${toErrorData(error).message}). Check the files it changed yourself; --revert will not undo them.`,
      );
    }
    // Git left its index as it was (the same reading): nothing changed.
    if (after.ok && after.snapshot.entries === before.entries) return { created: [], modified: [], deleted: [] };
    if (!after.ok)
      return {
        created: [],
        modified: [],
        deleted: [],
        note: `The command's changes were not recorded: ${after.untracked.message}`,
      };
    return serial(shadowDir, () => record(call, before.entries, after.snapshot.entries, since));
  };

  const record = async (
    call: { id: string; name: string; step: number },
    before: Map<string, IndexEntry>,
    after: Map<string, IndexEntry>,
    since: number,
  ): Promise<CommandChangeSummary> => {
    const notes: string[] = [];
    const skipped = {
      links: [] as string[],
      repos: [] as string[],
      names: [] as string[],
      large: [] as string[],
      lost: [] as string[],
    };
    const changed: Array<{ path: string; b: IndexEntry | undefined; a: IndexEntry | undefined }> = [];
    for (const [path, a] of after) {
      const b = before.get(path);
      if (!b || b.oid !== a.oid || b.mode !== a.mode) changed.push({ path, b, a });
    }
    for (const [path, b] of before) if (!after.has(path)) changed.push({ path, b, a: undefined });
    const files: typeof changed = [];
    for (const c of changed) {
      const modes = [c.b?.mode, c.a?.mode];
      if (c.path === '.i' || c.path.startsWith('.i/')) continue;
      if (modes.includes(MODE_GITLINK)) skipped.repos.push(c.path);
      else if (modes.includes(MODE_SYMLINK)) skipped.links.push(c.path);
      else if (!(c.b ?? c.a)!.utf8 || !validPath(c.path)) skipped.names.push(c.path);
      else files.push(c);
    }
    // Sizes first (a file past the limit is never read into memory), then the contents in one pass.
    const oids = [...new Set(files.flatMap((c) => [c.b?.oid, c.a?.oid]).filter((o): o is string => !!o))];
    const sizes = oids.length ? await objectSizes(oids) : new Map<string, number>();
    const wanted = files.filter((c) => {
      const big = [c.b, c.a].some((e) => e && (sizes.get(e.oid) ?? 0) > limits.fileBytes);
      if (big) skipped.large.push(c.path);
      return !big;
    });
    const contents = await objectContents([
      ...new Set(wanted.flatMap((c) => [c.b?.oid, c.a?.oid]).filter((o): o is string => !!o)),
    ]);
    // What was recorded of each path since this command began (another command of the turn that ended first, a
    // tool's write): a change seen by both is recorded once, and the chain of a path's states stays unbroken.
    const newer = new Map<string, CheckpointRecord>();
    for (const r of wanted.length > 0 ? await store.list(session) : [])
      if (r.seq > since && (r.kind === 'write' || r.kind === 'revert')) newer.set(r.path, r);
    const records: NewRecord[] = [];
    const summary: CommandChangeSummary = { created: [], modified: [], deleted: [] };
    for (const c of wanted.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))) {
      if ((c.a && !contents.has(c.a.oid)) || (c.b && !contents.has(c.b.oid) && !newer.has(c.path))) {
        skipped.lost.push(c.path);
        continue;
      }
      const afterBytes = c.a ? contents.get(c.a.oid)! : null;
      const afterSha = afterBytes ? await store.sha256(afterBytes) : ABSENT;
      const prior = newer.get(c.path);
      let beforeSha: string;
      let beforeSize: number | null;
      let beforeBytes: Uint8Array | null = null;
      if (prior) {
        beforeSha = prior.after;
        beforeSize = prior.afterBytes;
      } else {
        beforeBytes = c.b ? contents.get(c.b.oid)! : null;
        beforeSha = beforeBytes ? await store.sha256(beforeBytes) : ABSENT;
        beforeSize = beforeBytes?.byteLength ?? null;
      }
      if (beforeSha === afterSha) continue;
      if (beforeBytes) await store.putBlob(session, beforeBytes, beforeSha);
      if (afterBytes) await store.putBlob(session, afterBytes, afterSha);
      records.push({
        kind: 'write',
        session,
        turn,
        step: call.step,
        callId: call.id,
        tool: call.name,
        path: c.path,
        before: beforeSha,
        after: afterSha,
        beforeBytes: beforeSize,
        afterBytes: afterBytes?.byteLength ?? null,
        at: now(),
      });
      (beforeSha === ABSENT ? summary.created : afterSha === ABSENT ? summary.deleted : summary.modified).push(c.path);
    }
    if (records.length > 0) {
      const { records: stored, pruned } = await store.appendMany(records);
      for (const r of stored)
        options.onEvent?.({
          type: 'recorded',
          path: r.path,
          turn,
          callId: call.id,
          tool: call.name,
          before: r.before,
          after: r.after,
        });
      if (pruned) options.onEvent?.({ type: 'pruned', pruned });
    }
    const list = (paths: string[]) =>
      `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`;
    if (skipped.large.length) notes.push(`Not recorded, over ${mib(limits.fileBytes)}: ${list(skipped.large)}.`);
    if (skipped.lost.length) notes.push(`Not recorded, contents missing from the snapshot: ${list(skipped.lost)}.`);
    if (skipped.links.length) notes.push(`Not recorded, symbolic links: ${list(skipped.links)}.`);
    if (skipped.repos.length) notes.push(`Not recorded, nested git repositories: ${list(skipped.repos)}.`);
    if (skipped.names.length)
      notes.push(`Not recorded, names the workspace cannot write back: ${list(skipped.names)}.`);
    if (notes.length) summary.note = `${notes.join(' ')} --revert will not undo these.`;
    return summary;
  };

  /** Object sizes by id (`cat-file --batch-check`). */
  const objectSizes = async (oids: string[]) => {
    const out = new Map<string, number>();
    const text = (await git(['cat-file', '--batch-check'], `${oids.join('\n')}\n`)).toString('utf8');
    for (const line of text.split('\n')) {
      const [oid, type, size] = line.split(' ');
      if (oid && type === 'blob') out.set(oid, Number(size));
    }
    return out;
  };

  /** Object contents by id (`cat-file --batch`): `<oid> blob <size>\n<bytes>\n` each. */
  const objectContents = async (oids: string[]) => {
    const out = new Map<string, Uint8Array>();
    if (oids.length === 0) return out;
    const buf = await git(['cat-file', '--batch'], `${oids.join('\n')}\n`);
    let at = 0;
    while (at < buf.byteLength) {
      const eol = buf.indexOf(10, at);
      const [oid, type, size] = buf.toString('utf8', at, eol).split(' ');
      if (type === 'missing' && oid) {
        // Gone from the snapshot (e.g. a `git gc --prune=now` in the workspace removed contents the shadow borrowed
        // from it): that file is left out with a note, the others are recorded.
        at = eol + 1;
        continue;
      }
      if (type !== 'blob' || size === undefined)
        throw new HarnessError('E_CHECKPOINT_FAILED', `The snapshot lost the contents ${oid ?? ''} (${type ?? '?'}).`);
      const start = eol + 1;
      const end = start + Number(size);
      out.set(oid!, new Uint8Array(buf.buffer, buf.byteOffset + start, Number(size)).slice());
      at = end + 1;
    }
    return out;
  };

  const tidy = () =>
    serial(shadowDir, async () => {
      if (!(await readHead(indexFile))) return;
      const counted = (await git(['count-objects', '-v'])).toString('utf8');
      const kib = Number(/^size: (\d+)/m.exec(counted)?.[1] ?? 0);
      // Objects named by the index (the current snapshot) stay; older versions go (the checkpoint store has them).
      if (kib > TIDY_LOOSE_KIB) await git(['prune', '--expire=now']);
    });

  return { commandChangesFor, tidy };
}

function validPath(path: string): boolean {
  try {
    return normalizeWorkspacePath(path).path === path;
  } catch {
    return false;
  }
}

async function readHead(file: string): Promise<Uint8Array | null> {
  let handle;
  try {
    handle = await fsp.open(file, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
  try {
    const head = new Uint8Array(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return bytesRead === 12 ? head : null;
  } finally {
    await handle.close();
  }
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const current = await fsp.readFile(file, 'utf8').catch(() => null);
  if (current !== text) await fsp.writeFile(file, text);
}

/** Runs git; its standard output, or a HarnessError with what it printed. */
function runGit(
  program: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  input?: string,
  okCodes: number[] = [0],
) {
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(program, args, {
      env,
      cwd,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on('error', (error) =>
      reject(
        isErrno(error, 'ENOENT')
          ? new HarnessError(
              'E_CHECKPOINT_NO_GIT',
              `git was not found, so the changes of commands cannot be recorded for undo (--changes and --revert will not see them). Install git to have them recorded.`,
            )
          : error,
      ),
    );
    child.on('close', (code) => {
      if (code !== null && okCodes.includes(code)) resolve(Buffer.concat(out));
      else
        reject(
          new HarnessError(
            'E_CHECKPOINT_FAILED',
            `git ${args[0]} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`,
          ),
        );
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}
