import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, tempDirs, waitFor } from './fixtures/support';
import { GroupRecord, processStartTime, reapLeftoverGroups } from './process-groups';

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
function sleeper(): number {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)"], { detached: true, stdio: 'ignore' });
  child.unref();
  sleepers.push(child.pid!);
  return child.pid!;
}

/** A pid that no process has now (a child that already exited and was reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;

function writeRecord(dir: string, name: string, bridge: { pgid: number; start: string | null }, groups: { pgid: number; start: string | null }[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ version: 1, bridge, groups }));
  return file;
}

describe.skipIf(process.platform !== 'linux')('leftover worker groups of a killed bridge', () => {
  it('kills the recorded groups of a dead bridge, but not those of a live bridge or a pid reused by someone else', async () => {
    const dir = join(tempDirs().root, 'groups');
    const [mine, reused, orphan] = [sleeper(), sleeper(), sleeper()];
    await waitFor(() => processStartTime(orphan) !== null);
    const live = writeRecord(dir, '4000001', { pgid: process.pid, start: processStartTime(process.pid) }, [{ pgid: mine, start: processStartTime(mine) }]);
    const dead = Number(deadPid());
    const leftover = writeRecord(dir, String(dead), { pgid: dead, start: '1' }, [
      { pgid: reused, start: 'not-its-start-time' },
      { pgid: orphan, start: processStartTime(orphan) },
    ]);
    expect(reapLeftoverGroups(dir)).toEqual([orphan]);
    expect(await waitFor(() => !isAlive(orphan))).toBe(true);
    expect(isAlive(mine) && isAlive(reused)).toBe(true);
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('records groups in a 0600 file that disappears with the last group', () => {
    const dir = join(tempDirs().root, 'groups');
    const record = new GroupRecord(dir);
    const pid = sleeper();
    record.add(pid);
    expect(statSync(record.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(record.file, 'utf8')).groups).toEqual([{ pgid: pid, start: processStartTime(pid) }]);
    record.remove(pid);
    expect(existsSync(record.file)).toBe(false);
  });
});
