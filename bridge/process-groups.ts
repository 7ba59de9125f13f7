// Best-effort guard for a bridge that was SIGKILLed (or lost power to its event loop) before it could kill its
// workers. Each bridge records the process-group ids it started in `<runtime_dir>/groups/<bridge pid>.json`
// (0600, rewritten atomically when a group starts or has been sent SIGKILL, deleted when none is left); a new bridge start kills the groups recorded by a
// bridge that is no longer alive, then deletes that record. Workers should still exit on stdin EOF: this only
// catches the ones that do not.
//
// Pid reuse: on Linux every record carries the process start time (/proc/<pid>/stat field 22). A recorded
// bridge whose pid now belongs to a younger process is dead; a recorded group whose leader pid now belongs to a
// different process is skipped (that number was reused by someone else). A group whose leader has exited while
// members remain cannot have been reused (Linux keeps a pid while it names a live group), so it is killed.
// Elsewhere the start time is unknown and only liveness is checked. Windows has no process groups: not recorded.
import { chmodSync, mkdirSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface GroupEntry {
  pgid: number;
  start: string | null;
}

interface GroupFile {
  version: 1;
  bridge: GroupEntry;
  groups: GroupEntry[];
}

/** The kernel's start time of a process (clock ticks since boot), or null when unknown or not running. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : (fields[19] ?? null);
  } catch {
    return null;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process recorded as `entry` is still that same process. */
function sameProcess(entry: GroupEntry): boolean {
  if (!running(entry.pgid)) return false;
  if (entry.start === null) return true; // no /proc: liveness is all we know
  const now = processStartTime(entry.pgid);
  return now === null ? process.platform !== 'linux' : now === entry.start;
}

export class GroupRecord {
  readonly file: string;
  private readonly groups = new Map<number, string | null>();
  private readonly self: GroupEntry = { pgid: process.pid, start: processStartTime(process.pid) };
  private broken = false;

  constructor(
    readonly dir: string,
    private readonly log?: (line: string) => void,
  ) {
    this.file = join(dir, `${process.pid}.json`);
  }

  add(pgid: number): void {
    this.groups.set(pgid, processStartTime(pgid));
    this.write();
  }

  remove(pgid: number): void {
    if (this.groups.delete(pgid)) this.write();
  }

  /** After a clean shutdown: nothing is left to reap. */
  clear(): void {
    this.groups.clear();
    try {
      unlinkSync(this.file);
    } catch {
      // never written, or already gone
    }
  }

  private write(): void {
    if (this.broken) return;
    if (this.groups.size === 0) return this.clear();
    const content: GroupFile = { version: 1, bridge: this.self, groups: [...this.groups].map(([pgid, start]) => ({ pgid, start })) };
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(content)}\n`, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, this.file);
    } catch (error) {
      // The guard is best effort; the bridge keeps working (and its normal exit still kills every group).
      this.broken = true;
      this.log?.(`could not record worker groups in ${this.dir} (${(error as Error).message}); leftover workers of a killed bridge will not be reaped.`);
    }
  }
}

const isEntry = (v: unknown): v is GroupEntry =>
  typeof v === 'object' && v !== null && Number.isInteger((v as GroupEntry).pgid) && (v as GroupEntry).pgid > 1 &&
  ((v as GroupEntry).start === null || typeof (v as GroupEntry).start === 'string');

/**
 * Kills the groups recorded by bridges that are no longer running and removes their records. Returns the pgids
 * signalled. Records of live bridges, unreadable records and reused pids are left alone.
 */
export function reapLeftoverGroups(dir: string, log?: (line: string) => void): number[] {
  if (process.platform === 'win32') return [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name) || Number(name.slice(0, -5)) === process.pid) continue;
    const file = join(dir, name);
    let record: GroupFile;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as GroupFile;
    } catch {
      continue;
    }
    if (record?.version !== 1 || !isEntry(record.bridge) || !Array.isArray(record.groups) || !record.groups.every(isEntry)) continue;
    if (sameProcess(record.bridge)) continue; // that bridge is alive and owns its workers
    for (const group of record.groups) {
      // A live leader that is not the recorded process means the pid was reused: not ours to kill. On Linux a
      // leader recorded without a start time cannot be verified, so it is left alone too.
      if (running(group.pgid) && (group.start === null ? process.platform === 'linux' : !sameProcess(group))) continue;
      try {
        process.kill(-group.pgid, 'SIGKILL');
        killed.push(group.pgid);
      } catch {
        // ESRCH: the group is already gone
      }
    }
    try {
      unlinkSync(file);
    } catch {
      // another bridge start reaped it at the same time
    }
  }
  if (killed.length) log?.(`killed ${killed.length} leftover worker group(s) of a bridge that did not shut down: ${killed.join(', ')}`);
  return killed;
}
