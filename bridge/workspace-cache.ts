// Per-call file-system work, done once and re-checked at most every RECHECK_MS (1 s).
// - Workspaces: roots are canonicalised once at start. The spelling a request uses for its workspace (usually the
//   root itself) is mapped to its root with realpath, and the mapping is remembered; after RECHECK_MS the next
//   call resolves it again, so a root replaced by a symlink elsewhere is refused within a second. Only spellings
//   that resolved to a root are remembered (at most MAX_SPELLINGS), so the network cannot grow the cache. The
//   window adds nothing a local attacker lacks anyway: any check is followed by the worker using the path later.
// - Workspace ids: seed 000 §3 bindings are never rewritten, so a resolved id stays valid; the registry file's
//   identity (inode, size, mtime) is compared again after RECHECK_MS, and any change (a hand edit, a deleted
//   file) drops every remembered id so the next call reads the registry again.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { BridgeError } from './errors';
import { workspaceIdFor } from './workspace-registry';

export const RECHECK_MS = 1000;
const MAX_SPELLINGS = 64;

const denied = () =>
  new BridgeError(
    'E_WORKSPACE_DENIED',
    'The workspace is not one of the bridge roots. Start i-bridge with --root for that folder.',
  );

export class WorkspaceAuthorizer {
  private readonly known = new Map<string, { root: string; at: number }>();

  constructor(
    readonly roots: readonly string[],
    private readonly recheckMs = RECHECK_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A call's workspace must canonicalise to one of the configured roots; the network never widens them. */
  authorize(workspace: unknown): string {
    if (typeof workspace !== 'string' || !isAbsolute(workspace) || workspace.includes('\0')) {
      throw new BridgeError(
        'E_WORKSPACE_INVALID',
        'The workspace must be an absolute path. Send one of the bridge roots (GET /v1/status lists them).',
      );
    }
    const t = this.now();
    const hit = this.known.get(workspace);
    if (hit && t - hit.at < this.recheckMs) return hit.root;
    this.known.delete(workspace);
    let real: string;
    try {
      real = realpathSync(workspace);
    } catch {
      throw denied();
    }
    if (!this.roots.includes(real)) throw denied();
    if (this.known.size >= MAX_SPELLINGS) this.known.delete(this.known.keys().next().value!);
    this.known.set(workspace, { root: real, at: t });
    return real;
  }
}

const identity = (file: string): string => {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'missing';
  }
};

export class WorkspaceIds {
  private readonly ids = new Map<string, string>();
  private readonly file: string;
  private stamp = '';
  private checkedAt = -Infinity;

  constructor(
    private readonly dataDir: string,
    private readonly recheckMs = RECHECK_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(dataDir, 'workspaces.json');
  }

  /** The UUID bound to a canonical workspace path (registry lookup, assigning one on first use). */
  idFor(canonicalPath: string): string {
    const t = this.now();
    if (t - this.checkedAt >= this.recheckMs) {
      const stamp = identity(this.file);
      if (stamp !== this.stamp) this.ids.clear();
      this.stamp = stamp;
      this.checkedAt = t;
    }
    const cached = this.ids.get(canonicalPath);
    if (cached) return cached;
    const id = workspaceIdFor(this.dataDir, canonicalPath);
    // Remember the file as it is after our own write, so that write does not invalidate what we just learned.
    this.stamp = identity(this.file);
    this.checkedAt = t;
    this.ids.set(canonicalPath, id);
    return id;
  }
}
