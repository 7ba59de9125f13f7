import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from './cli-args';
import { json, send } from './fixtures/http';
import { examplesDir, fixturesDir, isAlive, tempDirs, waitFor } from './fixtures/support';
import type { PathContext } from './protocol';

describe('i-bridge arguments', () => {
  it('parses repeatable options and refuses unknown ones', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--root',
        '/a',
        '--root=/b',
        '--allow-origin',
        'https://x.example',
        '--manifest',
        'm.json',
        '--config-dir',
        '/c',
      ]),
    ).toEqual({
      help: false,
      port: 0,
      manifest: 'm.json',
      allowOrigins: ['https://x.example'],
      roots: ['/a', '/b'],
      configDir: '/c',
      ioLimitBytes: undefined,
      noSettings: false,
      exitWithStdin: false,
    });
    expect(() => parseCliArgs(['--host', '0.0.0.0'])).toThrow(/Unknown argument/);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--root'])).toThrow(/needs a value/);
  });

  it('takes --io-limit-bytes from 1024 to 48 MiB, and the two switches without a value', () => {
    expect(parseCliArgs(['--io-limit-bytes', '1024', '--no-settings', '--exit-with-stdin'])).toMatchObject({
      ioLimitBytes: 1024,
      noSettings: true,
      exitWithStdin: true,
    });
    expect(parseCliArgs(['--io-limit-bytes=50331648']).ioLimitBytes).toBe(50331648);
    for (const bad of ['1023', '50331649', '1e6', '-5', '4096.5', 'lots']) {
      expect(() => parseCliArgs(['--io-limit-bytes', bad]), bad).toThrow(
        /--io-limit-bytes expects an integer from 1024 to 50331648/,
      );
    }
    expect(() => parseCliArgs(['--io-limit-bytes'])).toThrow(/needs a value/);
    expect(() => parseCliArgs(['--no-settings=yes'])).toThrow(/takes no value/);
    expect(parseCliArgs([])).toMatchObject({ ioLimitBytes: undefined, noSettings: false, exitWithStdin: false });
  });

  it('documents every option and endpoint in --help', () => {
    for (const word of [
      '--io-limit-bytes',
      '--no-settings',
      '--exit-with-stdin',
      '--port',
      '--manifest',
      '--allow-origin',
      '--root',
      '--config-dir',
      '/v1/pair',
      '/v1/status',
      '/v1/manifest',
      '/v1/tools/call',
      '/v1/hooks/run',
      '/v1/provider/prepare',
      '/v1/proxy',
      'bridge.json',
      'I_RUNTIME_DIR',
      'pair the app again',
      'stdin closes',
      'exits with status 2',
      'E_BRIDGE_CLOSED',
    ]) {
      expect(USAGE).toContain(word);
    }
  });
});

let bundle: string;
beforeAll(async () => {
  bundle = join(tempDirs().root, 'i-bridge.mjs');
  // The bundle carries its dependencies, like the published CLI resolves them from node_modules.
  await build({
    entryPoints: [join(fixturesDir, '..', 'cli.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
    absWorkingDir: join(fixturesDir, '..', '..'),
  });
}, 30_000);

const cliEnv = (dirs: PathContext) => ({
  PATH: process.env.PATH,
  I_CONFIG_DIR: dirs.config_dir,
  I_DATA_DIR: dirs.data_dir,
  I_CACHE_DIR: dirs.cache_dir,
  I_RUNTIME_DIR: dirs.runtime_dir,
});

/** Starts the built i-bridge and waits for its banner. */
async function startCli(
  root: string,
  dirs: PathContext,
  manifest: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string; token: string; out: () => string }> {
  const stdin = extra.includes('--exit-with-stdin') ? 'pipe' : 'ignore';
  const child = spawn(process.execPath, [bundle, '--port', '0', '--manifest', manifest, '--root', root, ...extra], {
    env: cliEnv(dirs),
    cwd: root,
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  if (!(await waitFor(() => /Pairing code: [A-Z2-9]{4}-[A-Z2-9]{4}/.test(out) && out.includes('Roots:'), 10_000))) {
    child.kill('SIGKILL');
    throw new Error(`i-bridge did not start:\n${out}`);
  }
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
  const { token } = JSON.parse(readFileSync(join(dirs.runtime_dir, 'bridge.json'), 'utf8')) as { token: string };
  return { child, url, token, out: () => out };
}

describe('i-bridge process', () => {
  it('prints its URL and pairing code, and on SIGTERM leaves no worker, grandchild or bridge file', async () => {
    const { root, dirs } = tempDirs();
    const manifest = join(root, 'desktop.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        tools: [
          {
            name: 'hang',
            parameters: { type: 'object' },
            exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'hang'],
          },
        ],
      }),
    );
    const { child, url, token } = await startCli(root, dirs, manifest);
    const file = join(dirs.runtime_dir, 'bridge.json');
    try {
      const res = await send(url, '/v1/tools/call', {
        method: 'POST',
        headers: json(token),
        body: JSON.stringify({ name: 'hang', arguments: {}, workspace: root }),
      });
      const { pid, grandchild } = JSON.parse(res.json().output as string) as { pid: number; grandchild: number };
      expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
      child.kill('SIGTERM');
      expect(await waitFor(() => child.exitCode !== null, 5000)).toBe(true);
      expect(await waitFor(() => !isAlive(pid) && !isAlive(grandchild))).toBe(true);
      expect(existsSync(file)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'a new start kills the workers a SIGKILLed bridge left behind, even one that ignores stdin EOF',
    async () => {
      const { root, dirs } = tempDirs();
      const manifest = join(root, 'desktop.json');
      // trap-sigterm: ignores SIGTERM and outlives stdin EOF, with a grandchild that ignores SIGTERM too.
      writeFileSync(
        manifest,
        JSON.stringify({
          tools: [
            {
              name: 'stubborn',
              parameters: { type: 'object' },
              exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'trap-sigterm'],
            },
          ],
        }),
      );
      const first = await startCli(root, dirs, manifest);
      let second: ChildProcess | undefined;
      let pids: number[] = [];
      try {
        const res = await send(first.url, '/v1/tools/call', {
          method: 'POST',
          headers: json(first.token),
          body: JSON.stringify({ name: 'stubborn', arguments: {}, workspace: root }),
        });
        const { pid, grandchild } = JSON.parse(res.json().output as string) as { pid: number; grandchild: number };
        pids = [pid, grandchild];
        first.child.kill('SIGKILL'); // no exit handler runs: only stdin EOF reaches the worker, and it ignores it
        expect(await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, 5000)).toBe(true);
        await new Promise((r) => setTimeout(r, 300));
        expect(pids.every(isAlive)).toBe(true);
        const next = await startCli(root, dirs, manifest);
        second = next.child;
        expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
        expect(next.out()).toMatch(/killed 1 leftover worker group/);
        expect(existsSync(join(dirs.runtime_dir, 'groups', `${first.child.pid}.json`))).toBe(false);
      } finally {
        first.child.kill('SIGKILL');
        second?.kill('SIGKILL');
        for (const p of pids) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // gone
          }
        }
      }
    },
  );
});

/** A manifest whose `hang` tool answers with its pid and a grandchild's, then hangs (both ignore nothing). */
function hangManifest(root: string): string {
  const manifest = join(root, 'desktop.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      tools: [
        {
          name: 'hang',
          parameters: { type: 'object' },
          exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'hang'],
        },
      ],
    }),
  );
  return manifest;
}

async function startHang(url: string, token: string, root: string): Promise<number[]> {
  const res = await send(url, '/v1/tools/call', {
    method: 'POST',
    headers: json(token),
    body: JSON.stringify({ name: 'hang', arguments: {}, workspace: root }),
  });
  const { pid, grandchild } = JSON.parse(res.json().output as string) as { pid: number; grandchild: number };
  expect(isAlive(pid) && isAlive(grandchild)).toBe(true);
  return [pid, grandchild];
}

function killAll(pids: number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

describe('i-bridge flags for a parent that starts its own bridge', () => {
  it('refuses a bad --io-limit-bytes with a usage error (exit 2) before listening', async () => {
    const { root, dirs } = tempDirs();
    for (const bad of ['512', '50331649', 'big']) {
      const r = await new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [bundle, '--port', '0', '--root', root, '--io-limit-bytes', bad], {
          env: cliEnv(dirs),
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => done({ code, stderr }));
      });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(
        `error E_USAGE: --io-limit-bytes expects an integer from 1024 to 50331648, not "${bad}".`,
      );
    }
    expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
  });

  it('with --no-settings ignores bridge.json: its MCP server never starts and its origin is not allowed', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    const marker = join(root, 'mcp-started');
    // An MCP server that leaves a mark when started, then serves the real example server.
    const spy = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); import(${JSON.stringify(pathToFileURL(join(examplesDir, 'mcp-server.mjs')).href)})`;
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({
        allow_origins: ['https://i.example'],
        mcp_servers: { demo: { command: [process.execPath, '-e', spy], cwd: '.' } },
      }),
    );
    const manifest = hangManifest(root);
    const check = async (extra: string[]) => {
      const { child, url, token } = await startCli(root, dirs, manifest, extra);
      try {
        const tools = (
          (await send(url, '/v1/manifest', { headers: json(token) })).json() as { tools: { name: string }[] }
        ).tools.map((t) => t.name);
        const fromApp = await send(url, '/v1/status', { headers: { ...json(token), origin: 'https://i.example' } });
        return { tools, originStatus: fromApp.status };
      } finally {
        child.kill('SIGTERM');
        await waitFor(() => child.exitCode !== null, 5000);
      }
    };
    const ignored = await check(['--no-settings']);
    expect(ignored.tools.sort()).toEqual(['hang', 'web_fetch']);
    expect(ignored.originStatus).toBe(403);
    expect(existsSync(marker)).toBe(false);
    // The same folder without the flag: the settings apply (so the test above proves the flag, not a broken file).
    const read = await check([]);
    expect(read.tools).toContain('mcp__demo__add');
    expect(read.originStatus).toBe(200);
    expect(existsSync(marker)).toBe(true);
  }, 20_000);

  it('with --exit-with-stdin stops cleanly when stdin reaches EOF: exit 0, worker group and bridge.json gone', async () => {
    const { root, dirs } = tempDirs();
    const { child, url, token } = await startCli(root, dirs, hangManifest(root), [
      '--exit-with-stdin',
      '--io-limit-bytes',
      '4096',
    ]);
    let pids: number[] = [];
    try {
      pids = await startHang(url, token, root);
      await new Promise((r) => setTimeout(r, 200));
      expect(child.exitCode).toBe(null); // an open pipe keeps it running
      child.stdin!.end();
      expect(await waitFor(() => child.exitCode !== null, 5000)).toBe(true);
      expect(child.exitCode).toBe(0);
      expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
      expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      killAll(pids);
    }
  });

  it('with --exit-with-stdin exits with its workers when the parent holding the pipe is SIGKILLed', async () => {
    const { root, dirs } = tempDirs();
    const manifest = hangManifest(root);
    // The parent spawns the bridge with a stdin pipe it never closes, shares its stdout, and prints the bridge pid.
    const script = `const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, ${JSON.stringify([bundle, '--port', '0', '--manifest', manifest, '--root', root, '--exit-with-stdin'])}, { stdio: ['pipe', 'inherit', 'inherit'] });
      console.log('bridge pid ' + c.pid);`;
    const parent = spawn(process.execPath, ['-e', script], {
      env: cliEnv(dirs),
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    parent.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    parent.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    let pids: number[] = [];
    try {
      expect(await waitFor(() => /bridge pid \d+/.test(out) && out.includes('Roots:'), 10_000), out).toBe(true);
      const bridgePid = Number(/bridge pid (\d+)/.exec(out)![1]);
      pids = [bridgePid];
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const { token } = JSON.parse(readFileSync(join(dirs.runtime_dir, 'bridge.json'), 'utf8')) as { token: string };
      pids.push(...(await startHang(url, token, root)));
      parent.kill('SIGKILL');
      expect(await waitFor(() => pids.every((p) => !isAlive(p)), 5000)).toBe(true);
      expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
    } finally {
      parent.kill('SIGKILL');
      killAll(pids);
    }
  });
});

/** Runs the built i-bridge to its exit (it is expected to refuse to start). */
function runToExit(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('i-bridge refuses a start it cannot serve (exit 2, a code and what to do, nothing left running)', () => {
  it('a --root that is a file', async () => {
    const { root, dirs } = tempDirs();
    writeFileSync(join(root, 'notes.txt'), 'x');
    const r = await runToExit(['--port', '0', '--root', join(root, 'notes.txt')], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_ROOT_NOT_FOLDER: The root ${join(root, 'notes.txt')} is a file, not a folder. Pass the project folder to --root.`,
    );
    expect(r.stdout).not.toContain('listening');
  });

  it('a --port another program holds on 127.0.0.1', async () => {
    const { root, dirs } = tempDirs();
    const holder = createNetServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const r = await runToExit(['--port', String(port), '--root', root], cliEnv(dirs), root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error E_PORT_IN_USE: Port ${port} is already in use on 127.0.0.1`);
      expect(r.stderr).toContain('pick another port with --port');
      expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
    } finally {
      holder.close();
    }
  });

  it('a runtime folder that cannot be created, before any MCP server starts', async () => {
    const { root, dirs } = tempDirs();
    writeFileSync(join(root, 'a-file'), 'x');
    mkdirSync(dirs.config_dir, { recursive: true });
    const marker = join(root, 'mcp-started');
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({
        mcp_servers: {
          demo: { command: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] },
        },
      }),
    );
    const runtime = join(root, 'a-file', 'runtime');
    const r = await runToExit(['--port', '0', '--root', root], cliEnv({ ...dirs, runtime_dir: runtime }), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_RUNTIME_DIR_UNUSABLE: The runtime folder ${runtime} cannot be created or written (ENOTDIR). Set I_RUNTIME_DIR to a folder you can write.`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('a --config-dir that does not exist (a typo would silently drop every setting)', async () => {
    const { root, dirs } = tempDirs();
    const r = await runToExit(['--port', '0', '--root', root, '--config-dir', join(root, 'confg')], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_CONFIG_DIR_MISSING: The config folder ${join(root, 'confg')} (--config-dir) does not exist.`,
    );
  });

  it('a manifest named in bridge.json that cannot be read, pointing at bridge.json rather than --manifest', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    writeFileSync(join(dirs.config_dir, 'bridge.json'), JSON.stringify({ manifest: 'tools.json' }));
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_MANIFEST_UNREADABLE: Cannot read the manifest ${join(dirs.config_dir, 'tools.json')} (ENOENT). Check "manifest" in ${join(dirs.config_dir, 'bridge.json')}.`,
    );
  });

  it('an MCP server command that is not on PATH, as a bridge.json error with its path there', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({ mcp_servers: { demo: { command: ['no-such-mcp-server-xyz'] } } }),
    );
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error E_CONFIG_INVALID: At mcp_servers.demo.command.0: "no-such-mcp-server-xyz" is not an executable on PATH.',
    );
  });

  it('an MCP server that exits at once: the message carries its exit code and the end of its stderr, on one line', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    const script = "console.error('config file missing:\\n  /etc/demo.toml'); process.exit(3)";
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({ mcp_servers: { demo: { command: [process.execPath, '-e', script] } } }),
    );
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error E_MCP_UNAVAILABLE: The MCP server "demo" did not start \(.*; exited with code 3; stderr: config file missing: \/etc\/demo\.toml\)\. Check mcp_servers\.demo in bridge\.json\.\n$/,
    );
    expect(readdirSync(join(dirs.runtime_dir, 'groups'))).toEqual([]); // its group was killed, not left to reap
  });
});

describe('i-bridge and its runtime folder', () => {
  it('refuses a second bridge on the same runtime folder, so the first stays reachable through bridge.json', async () => {
    const { root, dirs } = tempDirs();
    const manifest = hangManifest(root);
    const first = await startCli(root, dirs, manifest);
    try {
      const file = join(dirs.runtime_dir, 'bridge.json');
      const before = readFileSync(file, 'utf8');
      const r = await runToExit(['--port', '0', '--manifest', manifest, '--root', root], cliEnv(dirs), root);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `error E_BRIDGE_RUNNING: Another i-bridge (pid ${first.child.pid}) is running at ${first.url} with the runtime folder ${dirs.runtime_dir}.`,
      );
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect((await send(first.url, '/v1/status', { headers: json(first.token) })).status).toBe(200);
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  it('replaces a bridge.json whose pid is alive but is not a bridge (a reused pid)', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.runtime_dir, { recursive: true, mode: 0o700 });
    // This test process is alive; nothing listens on port 9 of loopback.
    writeFileSync(
      join(dirs.runtime_dir, 'bridge.json'),
      JSON.stringify({ url: 'http://127.0.0.1:9', token: 'stale', pid: process.pid }),
    );
    const { child } = await startCli(root, dirs, hangManifest(root));
    try {
      expect((JSON.parse(readFileSync(join(dirs.runtime_dir, 'bridge.json'), 'utf8')) as { pid: number }).pid).toBe(
        child.pid,
      );
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('i-bridge and a stalled answer at its recorded address', () => {
  it('starts anyway when the recorded address sends its head and then stalls (no hang at start)', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.runtime_dir, { recursive: true, mode: 0o700 });
    // Answers with a status line and headers, then never sends the body or closes.
    const stall = createNetServer((socket) =>
      socket.once('data', () =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{'),
      ),
    );
    await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
    const port = (stall.address() as { port: number }).port;
    // This test process is alive, so only the address decides.
    writeFileSync(
      join(dirs.runtime_dir, 'bridge.json'),
      JSON.stringify({ url: `http://127.0.0.1:${port}`, token: 'x'.repeat(43), pid: process.pid }),
    );
    const started = Date.now();
    const { child } = await startCli(root, dirs, hangManifest(root));
    try {
      expect(Date.now() - started).toBeLessThan(8000);
      expect((JSON.parse(readFileSync(join(dirs.runtime_dir, 'bridge.json'), 'utf8')) as { pid: number }).pid).toBe(
        child.pid,
      );
    } finally {
      child.kill('SIGKILL');
      stall.close();
    }
  });
});

describe('i-bridge stopped at a bad moment', () => {
  it('SIGINT while an MCP server is starting stops that server (even one that ignores stdin EOF) and exits', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    const pidFile = join(root, 'mcp.pid');
    // Never answers initialize and outlives stdin EOF: only the bridge's group kill stops it.
    const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`;
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({ mcp_servers: { slow: { command: [process.execPath, '-e', script] } } }),
    );
    const child = spawn(process.execPath, [bundle, '--port', '0', '--root', root], {
      env: cliEnv(dirs),
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    let serverPid = 0;
    try {
      expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 10_000)).toBe(true);
      serverPid = Number(readFileSync(pidFile, 'utf8'));
      child.kill('SIGINT');
      expect(await waitFor(() => child.exitCode !== null, 5000)).toBe(true);
      expect(child.exitCode).toBe(2);
      expect(stderr).toContain(
        'error E_INTERRUPTED: i-bridge was stopped while it was starting; everything it had started was stopped too. Start it again.',
      );
      expect(await waitFor(() => !isAlive(serverPid), 3000)).toBe(true);
      expect(existsSync(join(dirs.runtime_dir, 'groups', `${child.pid}.json`))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      if (serverPid) killAll([serverPid]);
    }
  });

  it('SIGTERM during a call answers that call with 503 E_BRIDGE_CLOSED instead of dropping the connection', async () => {
    const { root, dirs } = tempDirs();
    const { child, url, token } = await startCli(root, dirs, hangManifest(root));
    let pids: number[] = [];
    try {
      pids = await startHang(url, token, root);
      const inFlight = send(url, '/v1/tools/call', {
        method: 'POST',
        headers: json(token),
        body: JSON.stringify({ name: 'hang', arguments: { hang: true }, workspace: root }),
      });
      await new Promise((r) => setTimeout(r, 200));
      child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'E_BRIDGE_CLOSED' });
      expect(await waitFor(() => child.exitCode !== null, 5000)).toBe(true);
      expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
      expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      killAll(pids);
    }
  });
});

describe('i-bridge with a bad bridge.json', () => {
  it.each([
    ['not JSON', '{"allow_origins": [', 'is not valid JSON'],
    ['not an object', '[]', 'At bridge.json: expected a JSON object.'],
    ['an unknown key', '{"allow_origin": []}', 'At bridge.json.allow_origin: unknown field.'],
    ['a wrong type', '{"web_fetch": {"enabled": "yes"}}', 'At web_fetch.enabled: expected true or false.'],
    [
      'an origin with a path',
      '{"allow_origins": ["https://i.example/app"]}',
      'At allow_origins.0: "https://i.example/app" must be a bare http(s) origin',
    ],
    [
      'a proxy origin that is a host name',
      '{"proxy_origins": ["api.openai.com"]}',
      'At proxy_origins.0: "api.openai.com" is not a URL origin',
    ],
    [
      'an MCP server without a command',
      '{"mcp_servers": {"demo": {"cwd": "."}}}',
      'At mcp_servers.demo.command: expected a non-empty argv array of strings.',
    ],
    [
      'an io_limit_bytes --io-limit-bytes would refuse',
      '{"io_limit_bytes": 100}',
      'At io_limit_bytes: expected an integer from 1024 to 50331648 (the same bounds as --io-limit-bytes).',
    ],
  ])('refuses %s: exit 2, E_CONFIG_INVALID naming the field and the file', async (_why, content, expected) => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    const file = join(dirs.config_dir, 'bridge.json');
    writeFileSync(file, content);
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error E_CONFIG_INVALID: /);
    expect(r.stderr).toContain(expected);
    expect(r.stderr).toContain(file);
    expect(r.stdout).not.toContain('listening');
  });

  it('refuses a bridge.json that is not a readable file (a folder) as unreadable, not as bad JSON', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(join(dirs.config_dir, 'bridge.json'), { recursive: true });
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_CONFIG_UNREADABLE: Cannot read ${join(dirs.config_dir, 'bridge.json')} (EISDIR). Make it a readable JSON file, or remove it to use the defaults.`,
    );
  });

  it('names the default desktop.json when it cannot be read', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(join(dirs.config_dir, 'desktop.json'), { recursive: true });
    const r = await runToExit(['--port', '0', '--root', root], cliEnv(dirs), root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `error E_MANIFEST_UNREADABLE: Cannot read the manifest ${join(dirs.config_dir, 'desktop.json')} (EISDIR). Check that file (read by default when it exists), or pass --manifest.`,
    );
  });

  it('takes an allowed origin written with a trailing slash as the origin a browser sends', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    writeFileSync(join(dirs.config_dir, 'bridge.json'), JSON.stringify({ allow_origins: ['https://i.example/'] }));
    const { child, url, token } = await startCli(root, dirs, hangManifest(root));
    try {
      expect((await send(url, '/v1/status', { headers: { ...json(token), origin: 'https://i.example' } })).status).toBe(
        200,
      );
      expect(
        (await send(url, '/v1/status', { headers: { ...json(token), origin: 'https://i.example/' } })).status,
      ).toBe(403);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
