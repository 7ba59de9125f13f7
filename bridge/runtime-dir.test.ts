// A planted runtime folder: looser permissions, another owner, links in place of the bridge's files, and two
// bridges started at the same moment on one folder.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError } from './errors';
import { json, send } from './fixtures/http';
import { examplesDir, tempDirs } from './fixtures/support';
import { startBridge, type BridgeOptions, type RunningBridge } from './start-bridge';

const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

function setup() {
  const { root, dirs } = tempDirs();
  const start = async (extra: Partial<BridgeOptions> = {}) => {
    const b = await startBridge({ port: 0, roots: [root], dirs, env: { PATH: process.env.PATH }, ...extra });
    running.push(b);
    return b;
  };
  return { root, dirs, start };
}

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  try {
    await promise;
  } catch (error) {
    if (BridgeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the start to be refused');
}

const posix = process.platform !== 'win32';

describe.skipIf(!posix)('the runtime folder is private, like XDG_RUNTIME_DIR', () => {
  it('creates a missing runtime folder (and its groups folder) with mode 0700', async () => {
    const { dirs, start } = setup();
    await start();
    expect(statSync(dirs.runtime_dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dirs.runtime_dir, 'groups')).mode & 0o777).toBe(0o700);
  });

  it.each([0o777, 0o755, 0o701])(
    'refuses a runtime folder with mode %o, saying how to fix it, and writes nothing there',
    async (mode) => {
      const { dirs, start } = setup();
      mkdirSync(dirs.runtime_dir, { recursive: true });
      chmodSync(dirs.runtime_dir, mode);
      const error = await refusal(start());
      expect(error.code).toBe('E_RUNTIME_DIR_UNSAFE');
      expect(error.message).toContain(`chmod 700 "${dirs.runtime_dir}"`);
      expect(existsSync(join(dirs.runtime_dir, 'bridge.json'))).toBe(false);
      expect(existsSync(join(dirs.runtime_dir, 'groups'))).toBe(false);
    },
  );

  it('refuses a groups folder that others can write', async () => {
    const { dirs, start } = setup();
    mkdirSync(join(dirs.runtime_dir, 'groups'), { recursive: true, mode: 0o700 });
    chmodSync(join(dirs.runtime_dir, 'groups'), 0o777);
    expect((await refusal(start())).code).toBe('E_RUNTIME_DIR_UNSAFE');
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a runtime folder that another user owns', async () => {
    const { dirs, start } = setup();
    mkdirSync(dirs.runtime_dir, { recursive: true, mode: 0o700 });
    chownSync(dirs.runtime_dir, 65534, 65534);
    const error = await refusal(start());
    expect(error.code).toBe('E_RUNTIME_DIR_UNSAFE');
    expect(error.message).toContain('belongs to user 65534');
  });
});

describe.skipIf(!posix)('files in the runtime folder are never written through a link', () => {
  it('replaces a symlink planted as bridge.json instead of writing its target, and removes only the link on close', async () => {
    const { root, dirs, start } = setup();
    mkdirSync(dirs.runtime_dir, { recursive: true, mode: 0o700 });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dirs.runtime_dir, 'bridge.json'));
    const b = await start();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    const file = join(dirs.runtime_dir, 'bridge.json');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ url: b.url, token: b.token, pid: process.pid });
    await b.close();
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('never follows a link planted at a predictable temporary name (bridge.json.<pid>.tmp, groups/<pid>.json.tmp)', async () => {
    const { root, dirs, start } = setup();
    mkdirSync(join(dirs.runtime_dir, 'groups'), { recursive: true, mode: 0o700 });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dirs.runtime_dir, `bridge.json.${process.pid}.tmp`));
    symlinkSync(victim, join(dirs.runtime_dir, 'groups', `${process.pid}.json.tmp`));
    const b = await start({ manifestPath: join(examplesDir, 'desktop.json') });
    // A worker start writes the group record too.
    const call = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'echo', arguments: { text: 'x' }, workspace: root }),
    });
    expect(call.status).toBe(200);
    expect(existsSync(join(dirs.runtime_dir, 'groups', `${process.pid}.json`))).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('takes the start lock even when a symlink was planted in its place, leaving the target alone', async () => {
    const { root, dirs, start } = setup();
    mkdirSync(dirs.runtime_dir, { recursive: true, mode: 0o700 });
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dirs.runtime_dir, 'bridge.lock'));
    const b = await start();
    expect(lstatSync(join(dirs.runtime_dir, 'bridge.lock')).isFile()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    await b.close();
    expect(existsSync(join(dirs.runtime_dir, 'bridge.lock'))).toBe(false);
  });
});

describe('one bridge per runtime folder', () => {
  it('of two bridges started at the same moment on one runtime folder, exactly one starts', async () => {
    const { start } = setup();
    const results = await Promise.allSettled([start(), start(), start()]);
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as BridgeError).code] : []));
    expect(started).toHaveLength(1);
    expect(refused).toEqual(['E_BRIDGE_RUNNING', 'E_BRIDGE_RUNNING']);
  });

  it('after the first bridge closes, the folder is free again; a lock left by a dead process is taken over', async () => {
    const { dirs, start } = setup();
    const first = await start();
    await first.close();
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    writeFileSync(join(dirs.runtime_dir, 'bridge.lock'), JSON.stringify({ pid: dead, start: '1', nonce: 'x' }), {
      mode: 0o600,
    });
    const second = await start();
    expect(second.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
