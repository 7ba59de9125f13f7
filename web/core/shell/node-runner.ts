// The ShellRunner of headless i (Node only): where a command may start (cwd inside the workspace), which sandbox it
// runs in (bubblewrap on Linux, sandbox-exec on macOS, none with `--sandbox off`), its environment (i's own minus
// I_APPROVAL_TOKEN, seed 000 §3), and the refusal when the sandbox is on but cannot run: E_SANDBOX_UNAVAILABLE,
// never a silent run without it.
import { spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdtempSync,
  promises as fsp,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';
import { HarnessError } from '../contracts';
import { SANDBOX_PROBE_TIMEOUT_MS, SHELL_DRAIN_MS, SHELL_KILL_GRACE_MS } from './limits';
import { startProcess, type Launch } from './node-process';
import { disarmNewRepository, gitPaths, inside, secretPaths, undoFolder } from './node-sandbox-paths';
import { BWRAP_BASE, bwrapArgv, seatbeltArgv, type SandboxPlan } from './sandbox-argv';
import type { SandboxInfo, ShellRunner } from './types';

export interface NodeShellOptions {
  /** The workspace's real path. */
  workspace: string;
  /** `--sandbox on|off` (default on). */
  sandbox: 'on' | 'off';
  /** i's environment; commands get it without I_APPROVAL_TOKEN. */
  env: Record<string, string | undefined>;
  /** More folders to hide inside the sandbox: i's config, data, cache and runtime folders. */
  hide?: readonly string[];
  /** `--allow-git-writes`: .git/hooks and .git/config are writable inside the sandbox too. */
  allowGitWrites?: boolean;
  /** The bwrap program; default: `bwrap` on PATH (or /usr/bin/bwrap). */
  bwrap?: string;
  platform?: NodeJS.Platform;
  /** Tests: shorter grace and drain. */
  killGraceMs?: number;
  drainMs?: number;
}

/** Variables no command may see (seed 000 §3: "Shell … 继承普通环境，但去掉审批 token"). */
export const SHELL_HIDDEN_ENV = ['I_APPROVAL_TOKEN'];

export function shellEnv(env: Record<string, string | undefined>, extra: Record<string, string> = {}) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SHELL_HIDDEN_ENV.includes(k)) out[k] = v;
  return { ...out, ...extra };
}

const findShell = (): string => ['/bin/bash', '/usr/bin/bash', '/bin/sh'].find((p) => existsSync(p)) ?? '/bin/sh';

function onPath(name: string, env: Record<string, string | undefined>): string | null {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const dir of [...dirs, '/usr/bin', '/usr/local/bin', '/bin']) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // next
    }
  }
  return null;
}

/**
 * An empty read-only file bound over each secret file (an empty file reads as empty; /dev/null bound there would
 * refuse to open: bwrap mounts binds nodev). One per user, kept in the temp folder and reused (nothing is left behind
 * per run); when that path is not ours, empty and read-only (a shared /tmp), a private one for this process instead.
 */
let emptyFile: string | null = null;
function emptyFileOnce(): string {
  if (emptyFile !== null) return emptyFile;
  const uid = process.getuid?.() ?? 0;
  const shared = join(tmpdir(), `i-shell-empty-${uid}`);
  try {
    writeFileSync(shared, '', { flag: 'wx', mode: 0o444 });
  } catch {
    // it exists already (checked below)
  }
  const st = lstatSync(shared, { throwIfNoEntry: false });
  if (st?.isFile() && st.size === 0 && st.uid === uid && (st.mode & 0o222) === 0) return (emptyFile = shared);
  const dir = mkdtempSync(join(tmpdir(), 'i-shell-empty-'));
  emptyFile = join(dir, 'empty');
  writeFileSync(emptyFile, '', { mode: 0o444 });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return emptyFile;
}

/** Folders under /run that hold the system itself on some distributions (NixOS: the programs on PATH). */
const RUN_KEEP = ['/run/current-system', '/run/booted-system', '/run/opengl-driver'];

const OFF_HINT =
  'or start i with --sandbox off to run commands without a sandbox, knowingly (they can then change any file you can and use the network)';

/** One probe per bwrap program and process: can it create the namespaces a command runs in? */
const probes = new Map<string, Promise<string | null>>();

function probeBwrap(bwrap: string, shell: string): Promise<string | null> {
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = new Promise<string | null>((done) => {
      const args = [...BWRAP_BASE, '--', shell, '-c', ':'];
      let stderr = '';
      const child = spawn(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      const timer = setTimeout(() => child.kill('SIGKILL'), SANDBOX_PROBE_TIMEOUT_MS);
      child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(0, 2000)));
      child.on('error', (e) => {
        clearTimeout(timer);
        done(e.message);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        done(code === 0 ? null : stderr.trim().split('\n')[0] || `exit ${code ?? signal}`);
      });
    });
    probes.set(bwrap, probe);
  }
  return probe;
}

export function createNodeShellRunner(o: NodeShellOptions): ShellRunner {
  const platform = o.platform ?? process.platform;
  const workspace = o.workspace;
  const shell = findShell();
  const graceMs = o.killGraceMs ?? SHELL_KILL_GRACE_MS;
  const drainMs = o.drainMs ?? SHELL_DRAIN_MS;
  const kind: SandboxInfo['kind'] =
    o.sandbox === 'off' ? 'off' : platform === 'darwin' ? 'seatbelt' : platform === 'linux' ? 'bwrap' : 'off';
  const bwrap = kind === 'bwrap' ? (o.bwrap ?? onPath('bwrap', o.env)) : null;
  const git = o.allowGitWrites ? 'writable (--allow-git-writes)' : '.git writable but its hooks and config read-only';
  const sandbox: SandboxInfo =
    o.sandbox === 'off'
      ? { kind: 'off', text: 'OFF (--sandbox off): the command can change any file you can and use the network' }
      : {
          kind,
          text:
            kind === 'seatbelt'
              ? `on (sandbox-exec: the workspace and a private temp folder writable, ${git}, .i read-only, secrets hidden)`
              : `on (bubblewrap: the workspace and a private /tmp writable, ${git}, .i read-only, secrets hidden)`,
        };

  async function check(): Promise<void> {
    if (o.sandbox === 'off') return;
    if (platform !== 'linux' && platform !== 'darwin')
      throw new HarnessError(
        'E_SANDBOX_UNAVAILABLE',
        `i has no sandbox for commands on ${platform}, so the command was not run. Run i on Linux (bubblewrap) or macOS, ${OFF_HINT}.`,
        { platform },
      );
    if (platform === 'darwin') {
      if (!existsSync('/usr/bin/sandbox-exec'))
        throw new HarnessError(
          'E_SANDBOX_UNAVAILABLE',
          `Commands run inside macOS's sandbox-exec, which is not at /usr/bin/sandbox-exec here, so the command was not run. Restore it, ${OFF_HINT}.`,
        );
      return;
    }
    if (!bwrap || !existsSync(bwrap))
      throw new HarnessError(
        'E_SANDBOX_UNAVAILABLE',
        `Commands run inside the bubblewrap sandbox, and bwrap was not found (${bwrap ?? 'not on PATH'}), so the command was not run. Install the package bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap), ${OFF_HINT}.`,
        { bwrap },
      );
    const problem = await probeBwrap(bwrap, shell);
    if (problem !== null)
      throw new HarnessError(
        'E_SANDBOX_UNAVAILABLE',
        `Commands run inside the bubblewrap sandbox, but ${bwrap} cannot create its namespaces here (${problem}), so the command was not run. Unprivileged user namespaces may be turned off (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 AppArmor restricts them for programs without a profile) or i runs in a container that forbids them. Allow them, ${OFF_HINT}.`,
        { bwrap, problem },
      );
  }

  async function resolveCwd(cwd: string | undefined): Promise<{ path: string; shown: string }> {
    if (cwd === undefined || cwd === '' || cwd === '.') return { path: workspace, shown: '.' };
    if (cwd.split(/[\\/]+/).includes('..'))
      throw new HarnessError(
        'E_SHELL_CWD_OUTSIDE',
        `cwd "${cwd}" goes through "..": commands start inside the workspace. Give a folder relative to the workspace root, e.g. "src".`,
        { cwd },
      );
    const path = resolve(workspace, cwd);
    const outside = (p: string) => !inside(workspace, p);
    if (outside(path))
      throw new HarnessError(
        'E_SHELL_CWD_OUTSIDE',
        `cwd "${cwd}" is outside the workspace (${workspace}): commands start inside it. Give a folder relative to the workspace root.`,
        { cwd },
      );
    const real = await fsp.realpath(path).catch(() => null);
    if (real === null || !(await fsp.stat(real)).isDirectory())
      throw new HarnessError(
        'E_SHELL_CWD_NOT_FOUND',
        `cwd "${cwd}" is not a folder in the workspace. Check the path.`,
        {
          cwd,
        },
      );
    if (outside(real))
      throw new HarnessError(
        'E_SHELL_CWD_OUTSIDE',
        `cwd "${cwd}" leads outside the workspace through a symbolic link (to ${real}): commands start inside it.`,
        { cwd },
      );
    return { path: real, shown: relative(workspace, real) || '.' };
  }

  /** The sandbox's paths, looked up just before the command starts. */
  async function plan(command: string, cwd: string, network: boolean): Promise<SandboxPlan & { existed: boolean }> {
    const [git, secrets, undo] = await Promise.all([
      gitPaths(workspace, o.allowGitWrites === true),
      secretPaths(o.env.HOME, o.hide ?? [], workspace),
      undoFolder(workspace),
    ]);
    return {
      shell,
      command,
      workspace,
      cwd,
      network,
      writable: git.writable,
      readOnly: [...git.readOnly, ...undo],
      hiddenDirs: secrets.dirs,
      hiddenFiles: secrets.files,
      existed: git.existed,
    };
  }

  /** A repository the command created is checked after it: what would run outside the sandbox is disabled. */
  const afterGit = (existed: boolean) => async (): Promise<string[]> => {
    if (existed || o.allowGitWrites) return [];
    const disabled = await disarmNewRepository(workspace);
    return disabled.length
      ? [
          `warning: the command created a git repository and put into it what git would run outside the sandbox; i disabled it: ${disabled.join(', ')}`,
        ]
      : [];
  };

  async function launch(command: string, cwd: string, network: boolean): Promise<Launch> {
    if (kind === 'off') return { argv: [shell, '-c', command], cwd, env: shellEnv(o.env) };
    const p = await plan(command, cwd, network);
    if (kind === 'bwrap') {
      let resolvConf = '';
      try {
        resolvConf = realpathSync('/etc/resolv.conf');
      } catch {
        // no resolver file: nothing to keep visible
      }
      return {
        argv: bwrapArgv({
          ...p,
          bwrap: bwrap!,
          emptyFile: emptyFileOnce(),
          keepUnderRun: [
            ...(network && resolvConf.startsWith('/run/') ? [resolvConf] : []),
            ...RUN_KEEP.filter((p) => existsSync(p)),
          ],
        }),
        cwd,
        env: shellEnv(o.env, { TMPDIR: '/tmp' }),
        after: afterGit(p.existed),
      };
    }
    // macOS: a private temp folder per command, removed after it.
    const tmp = await fsp.mkdtemp(join(realpathSync(tmpdir()), 'i-shell-'));
    const after = afterGit(p.existed);
    return {
      argv: seatbeltArgv({ ...p, tmp }),
      cwd,
      env: shellEnv(o.env, { TMPDIR: tmp }),
      after: async () => {
        await fsp.rm(tmp, { recursive: true, force: true });
        return after();
      },
    };
  }

  return {
    sandbox,
    check,
    resolveCwd,
    start(spec, onOutput) {
      if (!isAbsolute(spec.cwd)) throw new HarnessError('E_SHELL_CWD_OUTSIDE', 'The cwd must be resolved first.');
      return startProcess({
        plan: () => launch(spec.command, spec.cwd, spec.network),
        timeoutMs: spec.timeoutMs,
        graceMs,
        drainMs,
        onOutput,
      });
    },
  };
}
