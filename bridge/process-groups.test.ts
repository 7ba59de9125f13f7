import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, tempDirs, waitFor } from './fixtures/support';
import { GroupRecord, bootId, processStartTime, reapLeftoverGroups } from './process-groups';

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

const SLEEP = "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)";

/** A detached process (its own group) that ignores SIGTERM and stdin EOF, like a careless worker. */
function sleeper(): number {
  const child = spawn(process.execPath, ['-e', SLEEP], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH },
  });
  child.unref();
  sleepers.push(child.pid!);
  return child.pid!;
}

/** A group whose leader has exited while its child (same group) lives on: [pgid, child, leader's start time]. */
async function orphanedGroup(): Promise<[number, number, string]> {
  const script = `const s=require('fs').readFileSync('/proc/self/stat','utf8');const c=require('child_process').spawn(process.execPath,['-e',${JSON.stringify(SLEEP)}],{stdio:'ignore'});process.stdout.write(c.pid+' '+s.slice(s.lastIndexOf(')')+2).split(' ')[19]);c.unref();`;
  const leader = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH },
  });
  sleepers.push(leader.pid!);
  let out = '';
  leader.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((r) => leader.once('exit', r));
  const [child, start] = out.split(' ');
  await waitFor(() => processStartTime(leader.pid!) === null && processStartTime(Number(child)) !== null);
  return [leader.pid!, Number(child), start!];
}

/** A pid that no process has now (a child that already exited and was reaped). */
const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
const self = () => ({ pgid: process.pid, start: processStartTime(process.pid) });
const entry = (pgid: number) => ({ pgid, start: processStartTime(pgid) });
const shift = (start: string, by: number) => String(BigInt(start) + BigInt(by));

function writeRecord(
  dir: string,
  name: string,
  groups: { pgid: number; start: string | null }[],
  extra: Record<string, unknown> = {},
): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${name}.json`);
  const dead = deadPid();
  writeFileSync(
    file,
    JSON.stringify({ version: 3, boot: bootId(), bridge: { pgid: dead, start: '1' }, groups, ...extra }),
  );
  return file;
}

describe.skipIf(process.platform !== 'linux')('leftover worker groups of a killed bridge', () => {
  it("kills a dead bridge's group whose leader runs with the recorded start time, and one whose leader has exited", async () => {
    const dir = join(tempDirs().root, 'groups');
    const worker = sleeper();
    const [pgid, member, leaderStart] = await orphanedGroup();
    await waitFor(() => processStartTime(worker) !== null);
    const record = writeRecord(dir, '4000000', [entry(worker), { pgid, start: leaderStart }]);
    expect(reapLeftoverGroups(dir).sort()).toEqual([worker, pgid].sort());
    expect(await waitFor(() => !isAlive(worker) && !isAlive(member))).toBe(true);
    expect(existsSync(record)).toBe(false);
  });

  it('leaves alone a recorded pid now held by a younger process (its start time differs from the record)', async () => {
    const dir = join(tempDirs().root, 'groups');
    const reused = sleeper();
    await waitFor(() => processStartTime(reused) !== null);
    // The record's leader started earlier than the process that has its pid today.
    const record = writeRecord(dir, '4000000', [{ pgid: reused, start: shift(processStartTime(reused)!, -100) }]);
    const lines: string[] = [];
    expect(reapLeftoverGroups(dir, (l) => lines.push(l))).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(reused)).toBe(true);
    expect(existsSync(record)).toBe(false);
    expect(lines.join('\n')).toContain(`left 1 recorded process group(s) alone (${reused})`);
  });

  it('leaves alone a group without its leader whose members are older than the recorded leader', async () => {
    const dir = join(tempDirs().root, 'groups');
    const [pgid, member] = await orphanedGroup();
    // Recorded as started after the member: so the member cannot descend from the recorded leader.
    writeRecord(dir, '4000000', [{ pgid, start: shift(processStartTime(member)!, 100) }]);
    const lines: string[] = [];
    expect(reapLeftoverGroups(dir, (l) => lines.push(l))).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(member)).toBe(true);
    expect(lines.join('\n')).toContain('left 1 recorded process group(s) alone');
  });

  it('acts on no record from an earlier boot, an old version-2 record with a nonce, or one without start times', async () => {
    const dir = join(tempDirs().root, 'groups');
    const worker = sleeper();
    await waitFor(() => processStartTime(worker) !== null);
    const files = [
      writeRecord(dir, '4000001', [entry(worker)], { boot: '00000000-0000-0000-0000-000000000000' }),
      writeRecord(dir, '4000002', [entry(worker)], { version: 2, nonce: 'a'.repeat(32) }),
      writeRecord(dir, '4000003', [{ pgid: worker, start: null }]),
      writeRecord(dir, '4000004', [{ pgid: worker, start: '12; rm' }]),
    ];
    expect(reapLeftoverGroups(dir)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(worker)).toBe(true);
    expect(files.filter(existsSync)).toEqual([]);
  });

  it('leaves the record of a live bridge alone, and removes a symlink planted as a record without reading through it', () => {
    const root = tempDirs().root;
    const dir = join(root, 'groups');
    const worker = sleeper();
    const live = writeRecord(dir, '4000001', [entry(worker)], { bridge: self() });
    const victim = join(root, 'victim.json');
    writeFileSync(
      victim,
      JSON.stringify({ version: 3, boot: bootId(), bridge: { pgid: deadPid(), start: '1' }, groups: [entry(worker)] }),
    );
    symlinkSync(victim, join(dir, '4000002.json'));
    expect(reapLeftoverGroups(dir)).toEqual([]);
    expect(isAlive(worker)).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(join(dir, '4000002.json'))).toBe(false);
    expect(existsSync(victim)).toBe(true);
  });

  it('records its groups with their start times, its own pid and start, and this boot, in a 0600 file that goes with the last group', () => {
    const dir = join(tempDirs().root, 'groups');
    const record = new GroupRecord(dir);
    const pid = sleeper();
    record.add(pid);
    expect(statSync(record.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(record.file, 'utf8'))).toEqual({
      version: 3,
      boot: bootId(),
      bridge: self(),
      groups: [{ pgid: pid, start: processStartTime(pid) }],
    });
    record.remove(pid);
    expect(existsSync(record.file)).toBe(false);
  });
});
