// The sandbox of one command as an argument list: bubblewrap on Linux, sandbox-exec (Seatbelt) on macOS. Pure: the
// paths come from node-sandbox-paths.ts. Why each bwrap flag is there: CONTEXT.md, "The Linux sandbox".

export interface SandboxPlan {
  shell: string;
  command: string;
  workspace: string;
  cwd: string;
  network: boolean;
  /** Folders outside the workspace git must write (a linked worktree's). */
  writable: string[];
  /** Paths inside writable ones that stay read-only (.git/hooks, .git/config, .i …). */
  readOnly: string[];
  /** Secret folders and files shown empty. */
  hiddenDirs: string[];
  hiddenFiles: string[];
}

export interface BwrapPlan extends SandboxPlan {
  bwrap: string;
  /** An empty read-only file bound over each secret file. */
  emptyFile: string;
  /** Files under /run that must stay visible (the target of /etc/resolv.conf on systemd-resolved machines). */
  keepUnderRun: string[];
}

/** What every sandboxed command starts from (and what the probe tries once): every namespace new, a session of its
 *  own, no capabilities, death with i, the system read-only, fresh /dev, /proc, /tmp and /run. `--share-net` after
 *  it gives the network back (namespace flags are not ordered like mounts). */
export const BWRAP_BASE: readonly string[] = [
  '--unshare-all',
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
  '--tmpfs',
  '/run',
];

/**
 * `bwrap` with: every namespace new (user where it can, pid, ipc, uts, cgroup, and net unless the call may use the
 * network), no capabilities (root outside stays powerless inside), its own session (no TIOCSTI into the terminal),
 * death with i, the system read-only, fresh /dev, /proc, /tmp and /run, the workspace read-write, and the
 * protected and hidden paths mounted over it, last, so they win.
 */
export function bwrapArgv(p: BwrapPlan): string[] {
  const args = [p.bwrap, ...BWRAP_BASE, ...(p.network ? ['--share-net'] : [])];
  for (const keep of p.keepUnderRun) args.push('--ro-bind', keep, keep);
  args.push('--bind', p.workspace, p.workspace);
  for (const w of p.writable) args.push('--bind', w, w);
  for (const r of p.readOnly) args.push('--ro-bind', r, r);
  for (const d of p.hiddenDirs) args.push('--tmpfs', d, '--remount-ro', d);
  for (const f of p.hiddenFiles) args.push('--ro-bind', p.emptyFile, f);
  args.push('--chdir', p.cwd, '--', p.shell, '-c', p.command);
  return args;
}

/** A string literal of the sandbox profile language (Scheme-like: backslash and double quote escaped). */
const sbpl = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A Seatbelt profile for `sandbox-exec -p` with the same shape as the Linux sandbox: everything allowed but writes
 * (only the workspace, git's folders, a private temp folder and the terminal devices), the protected paths not
 * writable even there, the secrets neither readable nor writable, and no network unless allowed. Later rules win
 * over earlier ones in SBPL, so the denials come after the allowances. NOT tested here (no macOS in CI): CONTEXT.md.
 */
export function seatbeltProfile(p: SandboxPlan & { tmp: string }): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${[p.workspace, p.tmp, ...p.writable].map((w) => `(subpath ${sbpl(w)})`).join(' ')}` +
      ' (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
  ];
  if (p.readOnly.length) lines.push(`(deny file-write* ${p.readOnly.map((r) => `(subpath ${sbpl(r)})`).join(' ')})`);
  const secrets = [
    ...p.hiddenDirs.map((d) => `(subpath ${sbpl(d)})`),
    ...p.hiddenFiles.map((f) => `(literal ${sbpl(f)})`),
  ];
  if (secrets.length) lines.push(`(deny file-read* file-write* ${secrets.join(' ')})`);
  if (!p.network) lines.push('(deny network*)');
  return `${lines.join('\n')}\n`;
}

export function seatbeltArgv(p: SandboxPlan & { tmp: string }): string[] {
  return ['/usr/bin/sandbox-exec', '-p', seatbeltProfile(p), p.shell, '-c', p.command];
}
