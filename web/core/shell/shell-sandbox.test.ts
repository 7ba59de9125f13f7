// The shell tools over real processes and the real bubblewrap (installed here at /usr/bin/bwrap; CI installs the
// Debian package): what a sandboxed command can and cannot do, timeouts that leave no process, background
// processes, the refusal without a sandbox. The headless run with a model is in headless/shell-in-a-run.test.ts.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandChanges, ToolContext, ToolDefinition, ToolResult } from '../contracts';
import { createNodeShell, type NodeShellOptions } from './node';
import type { ShellOutputEvent } from './types';
import type { ShellToolsOptions } from './shell-tools';

let root: string;
let ws: string;
let home: string;
const stops: Array<() => Promise<void>> = [];
// Not under /tmp: inside the sandbox /tmp is a private, empty tmpfs, so a write "outside" there would prove nothing.
const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(base, 'i-shell-')));
  ws = join(root, 'ws');
  home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'SECRET KEY\n');
  writeFileSync(join(home, '.netrc'), 'machine x password SECRET\n');
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  rmSync(root, { recursive: true, force: true });
});

function shell(
  options: Partial<NodeShellOptions> & Pick<ShellToolsOptions, 'limits'> & { events?: ShellOutputEvent[] } = {},
) {
  const made = createNodeShell({
    workspace: ws,
    sandbox: 'on',
    env: { PATH: process.env.PATH, HOME: home, I_APPROVAL_TOKEN: 'tok-123', KEEP_ME: 'kept' },
    killGraceMs: 300,
    drainMs: 50,
    ...options,
    ...(options.events ? { onOutput: (e: ShellOutputEvent) => options.events!.push(e) } : {}),
  });
  stops.push(made.stopAll);
  const tool = (name: string) => made.tools.find((t) => t.schema.name === name)!;
  return { ...made, tool };
}

const ctx = (extra: Partial<ToolContext> = {}): ToolContext => ({
  fs: undefined as never,
  workspaceId: 'w',
  callId: 'call-1',
  signal: new AbortController().signal,
  ...extra,
});

/** prepare (the card), then execute, as the loop does. */
async function call(tool: ToolDefinition, args: Record<string, unknown>, c = ctx()): Promise<ToolResult> {
  let prepared;
  try {
    prepared = tool.prepare ? await tool.prepare(args, c) : undefined;
  } catch (error) {
    const e = error as { code: string; message: string };
    return { output: `Error ${e.code}: ${e.message}`, error: true, code: e.code };
  }
  return tool.execute(args, c, prepared);
}

const run = (command: string, extra: Record<string, unknown> = {}, options: Parameters<typeof shell>[0] = {}) =>
  call(shell(options).tool('shell'), { command, ...extra });

/** Host processes whose command line holds `marker` (bwrap's own argv holds it too). */
const processesWith = (marker: string) =>
  readdirSync('/proc')
    .filter((p) => /^[0-9]+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });

describe('shell in the bubblewrap sandbox', () => {
  it('runs a command in the workspace and reports its exit code and merged output', async () => {
    const r = await run('echo out; echo err >&2; pwd; exit 3');
    expect(r.error).toBeUndefined();
    expect(r.output).toMatch(/^exit 3 after /);
    expect(r.output).toContain('out\n');
    expect(r.output).toContain('err\n');
    expect(r.output).toContain(`${ws}\n`);
  });

  it('passes i’s environment without I_APPROVAL_TOKEN', async () => {
    const r = await run('env');
    expect(r.output).toContain('KEEP_ME=kept');
    expect(r.output).not.toContain('I_APPROVAL_TOKEN');
    expect(r.output).not.toContain('tok-123');
  });

  it('cannot write outside the workspace, and sees the secrets empty', async () => {
    const outside = join(root, 'outside.txt');
    const r = await run(
      `echo x > ${outside}; echo y > ${home}/new; echo z > ws-file; ls -A ${home}/.ssh | wc -l; cat ${home}/.netrc | wc -c; echo t > /tmp/t && cat /tmp/t`,
    );
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(home, 'new'))).toBe(false);
    expect(readFileSync(join(ws, 'ws-file'), 'utf8')).toBe('z\n');
    expect(r.output).toMatch(/Read-only file system/);
    expect(r.output).toMatch(/\n0\n0\nt\n/); // ~/.ssh empty, ~/.netrc empty, a private /tmp writable
    expect(readFileSync(join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe('SECRET KEY\n');
  });

  it('lets git add, commit, branch and stash work while .git/hooks and .git/config stay read-only', async () => {
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const git = 'git -c user.name=t -c user.email=t@t';
    const r = await run(
      `${git} add a.txt && ${git} commit -qm one && ${git} branch side && echo b > a.txt && ${git} stash -q && echo STASHED; ` +
        `echo 'touch pwned' > .git/hooks/pre-commit || echo HOOK-REFUSED; git config core.fsmonitor 'touch pwned' || echo CONFIG-REFUSED`,
    );
    expect(r.output).toContain('STASHED');
    expect(r.output).toContain('HOOK-REFUSED');
    expect(r.output).toContain('CONFIG-REFUSED');
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(execFileSync('git', ['-C', ws, 'branch', '--list'], { encoding: 'utf8' })).toContain('side');
  });

  it('disables the hooks of a repository the command itself created (git init inside the sandbox)', async () => {
    const r = await run(
      `git init -q . && echo 'touch pwned' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout && git config core.fsmonitor 'touch pwned' && echo PLANTED`,
    );
    expect(r.output).toContain('PLANTED');
    expect(r.output).toMatch(/disabled it: .*\.git\/hooks\/post-checkout.*\.git\/config core\.fsmonitor/);
    expect(existsSync(join(ws, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toMatch(/# disabled by i: .*fsmonitor/);
    execFileSync('git', ['-C', ws, 'status'], { encoding: 'utf8' }); // the repository still works
  });

  it('gives a linked worktree its git folders outside the workspace, hooks and config read-only', async () => {
    const main = join(root, 'main');
    execFileSync('git', ['init', '-q', main]);
    execFileSync('git', [
      '-C',
      main,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'root',
    ]);
    rmSync(ws, { recursive: true });
    execFileSync('git', ['-C', main, 'worktree', 'add', '-q', ws]);
    writeFileSync(join(ws, 'f.txt'), 'f\n');
    const r = await run(
      `git add f.txt && git -c user.name=t -c user.email=t@t commit -qm two && echo COMMITTED; echo x > ${main}/.git/hooks/pre-commit || echo HOOK-REFUSED; echo x > ${main}/other`,
    );
    expect(r.output).toContain('COMMITTED');
    expect(r.output).toContain('HOOK-REFUSED');
    // /tmp is private inside the sandbox: the write landed there, never in the real main worktree.
    expect(existsSync(join(main, 'other'))).toBe(false);
    expect(existsSync(join(main, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(execFileSync('git', ['-C', main, 'log', '--all', '--format=%s'], { encoding: 'utf8' })).toContain('two');
  });

  it('keeps the workspace’s .i read-only', async () => {
    mkdirSync(join(ws, '.i'));
    const r = await run('echo x > .i/forged || echo REFUSED');
    expect(r.output).toContain('REFUSED');
    expect(existsSync(join(ws, '.i', 'forged'))).toBe(false);
  });

  it('has no network unless the call allows it', async () => {
    const server: Server = createServer((s) => s.end('hello\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3' && echo CONNECTED || echo NO-NETWORK`;
      expect((await run(probe)).output).toContain('NO-NETWORK');
      expect((await run(probe, { network: true })).output).toContain('hello\nCONNECTED');
    } finally {
      server.close();
    }
  });

  it('holds a 3 MB output whole (under the cap) and bounds what it holds beyond the cap', async () => {
    const r = await run(`head -c 3000000 /dev/zero | tr '\\0' a`);
    expect(r.output.slice(0, 200)).toMatch(
      /output \(stdout and stderr merged, 3000000 bytes\); its last 2048 bytes start at offset \d+/,
    );
    const offset = Number(/start at offset (\d+)/.exec(r.output)![1]);
    expect(Buffer.byteLength(r.output) - offset).toBe(2048);
    const small = shell({ limits: { headBytes: 1000, tailBytes: 500 } }).tool('shell');
    const cut = await call(small, { command: `head -c 100000 /dev/zero | tr '\\0' b; echo END` });
    expect(cut.output).toContain('100004 bytes; the middle 98504 bytes were not kept)');
    expect(cut.output.endsWith('bbbbEND\n')).toBe(true);
    expect(Buffer.byteLength(cut.output)).toBeLessThan(2000);
  });

  it('stops a command that times out with every process it started', async () => {
    const marker = `${30 + Math.random()}`.slice(0, 9);
    const r = await run(`sleep ${marker} & sleep ${marker}; wait`, { timeout_s: 0.4 });
    expect(r.error).toBe(true);
    expect(r.code).toBe('E_SHELL_TIMEOUT');
    expect(r.output).toMatch(/^timed out after 0\.40 s: the command and every process it started were stopped/);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('runs in the background: an id at once, new output on each read, stop ends it', async () => {
    const events: ShellOutputEvent[] = [];
    const s = shell({ events });
    const started = await call(s.tool('shell'), {
      command: 'echo first; sleep 0.3; echo second; sleep 30',
      background: true,
    });
    expect(started.output).toMatch(/^started in the background as bg-1\./);
    const first = await call(s.tool('shell_output'), { id: 'bg-1', wait_s: 2 });
    expect(first.output).toMatch(/^bg-1 \(echo first; .*\): running for/);
    expect(first.output).toContain('first\n');
    const second = await call(s.tool('shell_output'), { id: 'bg-1', wait_s: 2 });
    expect(second.output).toContain('second\n');
    expect(second.output).not.toContain('first\n');
    const stopped = await call(s.tool('shell_stop'), { id: 'bg-1' });
    expect(stopped.output).toMatch(/^bg-1 .*: stopped after/);
    expect(events.map((e) => e.text).join('')).toContain('first\nsecond\n');
    expect(events.every((e) => e.background === 'bg-1' && e.callId === 'call-1')).toBe(true);
    const unknown = await call(s.tool('shell_output'), { id: 'bg-9' });
    expect(unknown.code).toBe('E_SHELL_UNKNOWN_ID');
  });

  it('stops background processes when the run ends (stopAll)', async () => {
    const marker = `${40 + Math.random()}`.slice(0, 9);
    const s = shell();
    await call(s.tool('shell'), { command: `sleep ${marker}`, background: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(processesWith(`sleep ${marker}`).length).toBeGreaterThan(0);
    await s.stopAll();
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('refuses with E_SANDBOX_UNAVAILABLE when bwrap is missing, and runs without it only with --sandbox off', async () => {
    const missing = await run('echo ran', {}, { bwrap: join(root, 'no-such-bwrap') });
    expect(missing.code).toBe('E_SANDBOX_UNAVAILABLE');
    expect(missing.output).toMatch(/Install the package bubblewrap .* --sandbox off/);
    const off = shell({ sandbox: 'off', bwrap: join(root, 'no-such-bwrap') });
    const r = await call(off.tool('shell'), { command: `echo ran; echo x > ${root}/outside.txt` });
    expect(r.output).toContain('ran\n');
    expect(existsSync(join(root, 'outside.txt'))).toBe(true); // no sandbox, as the person chose
    expect((await off.tool('shell').prepare!({ command: 'ls' }, ctx())).summary).toContain('NO sandbox');
  });

  it('starts only in folders inside the workspace', async () => {
    mkdirSync(join(ws, 'src'));
    expect((await run('pwd', { cwd: 'src' })).output).toContain(`${ws}/src\n`);
    expect((await run('pwd', { cwd: '../' })).code).toBe('E_SHELL_CWD_OUTSIDE');
    expect((await run('pwd', { cwd: '/etc' })).code).toBe('E_SHELL_CWD_OUTSIDE');
    expect((await run('pwd', { cwd: 'nope' })).code).toBe('E_SHELL_CWD_NOT_FOUND');
    execFileSync('ln', ['-s', '/etc', join(ws, 'etc-link')]);
    expect((await run('pwd', { cwd: 'etc-link' })).code).toBe('E_SHELL_CWD_OUTSIDE');
  });

  it('calls the undo port before and after, and says beforehand when changes cannot be recorded', async () => {
    const seen: string[] = [];
    const changes: CommandChanges = {
      async begin(command) {
        seen.push(`begin ${command}`);
        return {
          finish: async () => {
            seen.push('finish');
            return { created: ['new.txt'], modified: [], deleted: [] };
          },
        };
      },
    };
    const r = await call(shell().tool('shell'), { command: 'echo > new.txt' }, ctx({ commandChanges: changes }));
    expect(seen).toEqual(['begin echo > new.txt', 'finish']);
    expect(r.output).toContain('undo: 1 created, 0 modified, 0 deleted (recorded; --revert puts them back)');
    const untracked: CommandChanges = {
      begin: async () => ({
        untracked: { code: 'E_UNDO_TOO_LARGE', message: 'the workspace has more than 50000 files' },
        finish: async () => ({ created: [], modified: [], deleted: [] }),
      }),
    };
    const tool = shell().tool('shell');
    const card = await tool.prepare!({ command: 'make' }, ctx({ commandChanges: untracked }));
    expect(card.detail).toContain('undo: not recorded (E_UNDO_TOO_LARGE): the workspace has more than 50000 files');
    expect(card.detail).toMatch(/sandbox: on \(bubblewrap/);
    expect(card.detail).toContain('network: off');
    const timedOut = await call(tool, { command: 'sleep 5', timeout_s: 0.2 }, ctx({ commandChanges: changes }));
    expect(timedOut.code).toBe('E_SHELL_TIMEOUT');
    expect(seen.at(-1)).toBe('finish'); // finished after a timeout too
  });
});
