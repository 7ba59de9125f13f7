import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, tempDirs, waitFor } from './fixtures/support';
import { GroupRecord, NONCE_ENV, processStartTime, reapLeftoverGroups } from './process-groups';

const sleepers: number[] = [];
afterEach(() => {
  for (const pid of sleepers.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A detached process (its own group) that ignores SIGTERM and stdin EOF, like a careless worker. */
function sleeper(env: Record<string, string> = {}): number {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)"], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH, ...env } });
  child.unref();
  sleepers.push(child.pid!);
  return child.pid!;
}

/** A group whose leader has exited while its child (same group, carrying `env`) lives on. Returns [pgid, child]. */
async function orphanedGroup(env: Record<string, string>): Promise<[number, number]> {
  const script = `const c=require('child_process').spawn(process.execPath,['-e',"process.on('SIGTERM',()=>{});setInterval(()=>{},1000)"],{stdio:'ignore'});process.stdout.write(String(c.pid));c.unref();`;
  const leader = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env.PATH, ...env } });
  sleepers.push(leader.pid!);
  let out = '';
  leader.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => leader.once('exit', r));
  return [leader.pid!, Number(out)];
}

/** A pid that no process has now (a child that already exited and was reaped). */
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
const NONCE = 'a'.repeat(32);
const self = () => ({ pgid: process.pid, start: processStartTime(process.pid) });

function writeRecord(dir: string, name: string, bridge: { pgid: number; start: string | null }, groups: { pgid: number; start: string | null }[], nonce = NONCE): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ version: 2, bridge, nonce, groups }));
  return file;
}
const entry = (pgid: number) => ({ pgid, start: processStartTime(pgid) });

describe.skipIf(process.platform !== 'linux')('leftover worker groups of a killed bridge', () => {
  it('kills a dead bridge\'s groups whose processes carry its nonce, even when the leader has exited', async () => {
    const dir = join(tempDirs().root, 'groups');
    const worker = sleeper({ [NONCE_ENV]: NONCE });
    const [pgid, member] = await orphanedGroup({ [NONCE_ENV]: NONCE });
    await waitFor(() => processStartTime(worker) !== null && isAlive(member));
    const dead = deadPid();
    const record = writeRecord(dir, String(dead), { pgid: dead, start: '1' }, [entry(worker), { pgid, start: '5' }]);
    expect(reapLeftoverGroups(dir).sort()).toEqual([worker, pgid].sort());
    expect(await waitFor(() => !isAlive(worker) && !isAlive(member))).toBe(true);
    expect(existsSync(record)).toBe(false);
  });

  it('leaves alone a recorded foreign process (no nonce, or another start\'s nonce), even with its true start time', async () => {
    const dir = join(tempDirs().root, 'groups');
    const foreign = sleeper();
    const otherStart = sleeper({ [NONCE_ENV]: 'b'.repeat(32) });
    await waitFor(() => processStartTime(foreign) !== null && processStartTime(otherStart) !== null);
    const dead = deadPid();
    // A planted record naming them, and this test process's own group, with start times copied from /proc.
    const record = writeRecord(dir, String(dead), { pgid: dead, start: '1' }, [entry(foreign), entry(otherStart), entry(process.pid)]);
    const lines: string[] = [];
    expect(reapLeftoverGroups(dir, (l) => lines.push(l))).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(foreign) && isAlive(otherStart)).toBe(true);
    expect(existsSync(record)).toBe(false);
    expect(lines.join('\n')).toContain('left 2 recorded process group(s) alone');
  });

  it('leaves the record of a live bridge alone, and removes a symlink planted as a record without reading through it', () => {
    const root = tempDirs().root;
    const dir = join(root, 'groups');
    const worker = sleeper({ [NONCE_ENV]: NONCE });
    const live = writeRecord(dir, '4000001', self(), [entry(worker)]);
    const victim = join(root, 'victim.json');
    writeFileSync(victim, JSON.stringify({ version: 2, bridge: { pgid: deadPid(), start: '1' }, nonce: NONCE, groups: [entry(worker)] }));
    symlinkSync(victim, join(dir, '4000002.json'));
    expect(reapLeftoverGroups(dir)).toEqual([]);
    expect(isAlive(worker)).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(join(dir, '4000002.json'))).toBe(false);
    expect(existsSync(victim)).toBe(true);
  });

  it('records groups with its nonce in a 0600 file that disappears with the last group', () => {
    const dir = join(tempDirs().root, 'groups');
    const record = new GroupRecord(dir);
    const pid = sleeper();
    record.add(pid);
    expect(statSync(record.file).mode & 0o777).toBe(0o600);
    expect(record.env).toEqual({ [NONCE_ENV]: record.nonce });
    const content = JSON.parse(readFileSync(record.file, 'utf8'));
    expect(content).toMatchObject({ version: 2, nonce: record.nonce, groups: [{ pgid: pid, start: processStartTime(pid) }] });
    expect(record.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new GroupRecord(dir).nonce).not.toBe(record.nonce);
    record.remove(pid);
    expect(existsSync(record.file)).toBe(false);
  });
});
