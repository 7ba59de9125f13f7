// i-bridge prints no terminal control sequence that came from text it does not control (here an MCP server's
// stderr and a manifest path from bridge.json, each quoted in a start error). The built CLI is spawned, as in
// cli.test.ts.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir, tempDirs, waitFor } from './fixtures/support';
import type { PathContext } from './protocol';

const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e';

/** Code units a terminal or a bidi algorithm acts on (the newline ending each line is allowed). */
const rawControls = (text: string) =>
  [...text]
    .map((ch) => ch.charCodeAt(0))
    .filter((c) => (c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e));

let bundle: string;
beforeAll(async () => {
  bundle = join(tempDirs().root, 'i-bridge.mjs');
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

function runBridge(
  args: string[],
  dirs: PathContext,
  cwd: string,
  until?: (out: string) => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle, ...args], {
      env: cliEnv(dirs),
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    if (until) void waitFor(() => until(stdout), 15_000).then(() => child.kill('SIGTERM'));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('i-bridge shows untrusted text safely', () => {
  it("escapes an MCP server's stderr quoted in its start error, which stays one line", async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    const script = `process.stderr.write(${JSON.stringify(`boom ${HOSTILE}\nerror E_FAKE: forged`)}); process.exit(3)`;
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({ mcp_servers: { demo: { command: [process.execPath, '-e', script] } } }),
    );
    const r = await runBridge(['--port', '0', '--root', root], dirs, root);
    expect(r.code).toBe(2);
    expect(rawControls(r.stdout + r.stderr)).toEqual([]);
    expect(r.stderr).toMatch(
      /^error E_MCP_UNAVAILABLE: .*stderr: boom \\x1b\]0;pwned\\x07\\x1b\[2J\\x9b31m\\u202e error E_FAKE: forged.*\n$/,
    );
  });

  it('escapes a manifest path from bridge.json quoted in its error', async () => {
    const { root, dirs } = tempDirs();
    mkdirSync(dirs.config_dir, { recursive: true });
    writeFileSync(
      join(dirs.config_dir, 'bridge.json'),
      JSON.stringify({ manifest: join(root, `missing${HOSTILE}.json`) }),
    );
    const r = await runBridge(['--port', '0', '--root', root], dirs, root);
    expect(r.code).toBe(2);
    expect(rawControls(r.stdout + r.stderr)).toEqual([]);
    expect(r.stderr).toContain('missing\\x1b]0;pwned\\x07');
  });
});
