// Best-effort guard for a bridge that was SIGKILLed (or lost power to its event loop) before it could kill its
// workers. Each bridge records the process-group ids it started in `<runtime_dir>/groups/<bridge pid>.json`
// (0600, replaced atomically when a group starts or has been sent SIGKILL, deleted when none is left); a new bridge
// start kills the groups recorded by a bridge that is no longer alive, then deletes that record. Workers should
// still exit on stdin EOF: this only catches the ones that do not.
//
// Who can write a record: the runtime folder is private (0700, this user's, refused otherwise; files created
// exclusively, never read through a link: runtime-dir.ts), so only this user can plant one, and this user can kill
// those processes anyway. Nothing is added to a worker's environment to mark it (seed 000 §2 keeps only PATH,
// PYTHONUTF8, the HOME-like variables and the four I_*_DIR). What the check must still stop is pid reuse: a record
// must never make a start kill a group that is not the one the dead bridge started. On Linux a recorded group X
// (with its leader's kernel start time, /proc/<pid>/stat field 22, and the boot it was recorded in) is killed only
// when it has live members and
//  (a) process X exists with exactly the recorded start time (alive, or a zombie not yet reaped: its pid is still
//      taken, so the group cannot have been made anew), or
//  (b) process X is gone and every live member of X started at or after the recorded start time.
// (b) is sound because Linux never hands out a pid that is still in use as a process-group id: while the recorded
// group had a live member, no new process could get pid X. So a group X whose leader is gone is the recorded one
// unless that group died out completely, the pid space then wrapped round to X, a new process got X, made itself a
// group leader, started members and exited. Those members would be younger than the recorded leader and pass (b):
// that residual risk is accepted for a best-effort guard. A reused X that is alive, or a group whose members are
// older than the recorded leader, fails (a)/(b) and is left alone and logged. Start times count from boot, so a
// record from an earlier boot (/proc/sys/kernel/random/boot_id differs) names none of today's processes and is
// never acted on. Without /proc (macOS, BSD) nothing can be verified: the record is logged and removed, never
// acted on. Windows has no process groups and records nothing.
//
// A recorded bridge is alive when its pid runs with the recorded start time: its record is left alone.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { preparePrivateDir, readPrivateFile, unlinkQuietly, writePrivateFile } from './runtime-dir';

interface GroupEntry {
  pgid: number;
  /** Kernel start time in clock ticks since boot (decimal digits), or null where /proc does not say. */
  start: string | null;
}

/** Version 3: start times and boot id only (version 2 carried a nonce that workers no longer get; it is dropped). */
interface GroupFile {
  version: 3;
  boot: string | null;
  bridge: GroupEntry;
  groups: GroupEntry[];
}

interface Stat {
  state: string;
  pgrp: number;
  start: string;
}

function readStat(pid: number | string): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start && /^\d+$/.test(start) ? { state: fields[0] ?? '', pgrp: Number(fields[2]), start } : null;
  } catch {
    return null;
  }
}

/** The kernel's start time of a process (clock ticks since boot), or null when unknown or not running. */
export function processStartTime(pid: number): string | null {
  const stat = readStat(pid);
  return stat === null || stat.state === 'Z' ? null : stat.start;
}

/** This boot's id (Linux), so a record left by an earlier boot is never matched against today's pids. */
export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process recorded as `entry` is still that same process. */
export function sameProcess(entry: GroupEntry): boolean {
  if (!running(entry.pgid)) return false;
  if (entry.start === null) return true; // no /proc: liveness is all we know
  const now = processStartTime(entry.pgid);
  return now === null ? process.platform !== 'linux' : now === entry.start;
}

export class GroupRecord {
  readonly file: string;
  private readonly groups = new Map<number, string | null>();
  private readonly self: GroupEntry = { pgid: process.pid, start: processStartTime(process.pid) };
  private readonly boot = bootId();
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
    unlinkQuietly(this.file);
  }

  private write(): void {
    if (this.broken) return;
    if (this.groups.size === 0) return this.clear();
    const content: GroupFile = {
      version: 3,
      boot: this.boot,
      bridge: this.self,
      groups: [...this.groups].map(([pgid, start]) => ({ pgid, start })),
    };
    try {
      preparePrivateDir(this.dir);
      writePrivateFile(this.file, `${JSON.stringify(content)}\n`);
    } catch (error) {
      // The guard is best effort; the bridge keeps working (and its normal exit still kills every group).
      this.broken = true;
      this.log?.(
        `could not record worker groups in ${this.dir} (${(error as Error).message}); leftover workers of a killed bridge will not be reaped.`,
      );
    }
  }
}

const isEntry = (v: unknown): v is GroupEntry =>
  typeof v === 'object' &&
  v !== null &&
  Number.isInteger((v as GroupEntry).pgid) &&
  (v as GroupEntry).pgid > 1 &&
  ((v as GroupEntry).start === null ||
    (typeof (v as GroupEntry).start === 'string' && /^\d{1,20}$/.test((v as GroupEntry).start!)));

function parseRecord(text: string | undefined): GroupFile | undefined {
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as GroupFile;
    const ok =
      r?.version === 3 &&
      (r.boot === null || typeof r.boot === 'string') &&
      isEntry(r.bridge) &&
      Array.isArray(r.groups) &&
      r.groups.every(isEntry);
    return ok ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Start times of the live (not zombie) processes of each process group, from /proc (Linux). */
function membersByGroup(): Map<number, bigint[]> {
  const groups = new Map<number, bigint[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name); // null: exited meanwhile
    if (stat === null || stat.state === 'Z') continue;
    const list = groups.get(stat.pgrp);
    if (list) list.push(BigInt(stat.start));
    else groups.set(stat.pgrp, [BigInt(stat.start)]);
  }
  return groups;
}

/** Whether live group `group.pgid` is the one recorded (see the header for (a) and (b)). */
function isRecordedGroup(group: GroupEntry, members: bigint[]): boolean {
  if (group.start === null) return false; // recorded without a start time: nothing to check against
  const leader = readStat(group.pgid);
  if (leader !== null) return leader.start === group.start; // (a)
  const recorded = BigInt(group.start);
  return members.every((start) => start >= recorded); // (b)
}

/**
 * Kills the verified groups recorded by bridges that are no longer running and removes their records. Returns the
 * pgids signalled. Records of live bridges are left alone; unreadable or unverifiable ones are removed unused.
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
  const refused: number[] = [];
  let members: Map<number, bigint[]> | undefined;
  const boot = bootId();
  for (const name of names) {
    if (!/^\d+\.json$/.test(name) || Number(name.slice(0, -5)) === process.pid) continue;
    const file = join(dir, name);
    const record = parseRecord(readPrivateFile(file));
    if (record && sameProcess(record.bridge)) continue; // that bridge is alive and owns its workers
    if (record && process.platform === 'linux') {
      members ??= membersByGroup();
      for (const group of record.groups) {
        const live = members.get(group.pgid);
        if (!live) continue; // the group is gone
        if (boot === null || record.boot !== boot || !isRecordedGroup(group, live)) {
          refused.push(group.pgid); // a reused pid (or an earlier boot's record): not ours to kill
          continue;
        }
        try {
          process.kill(-group.pgid, 'SIGKILL');
          killed.push(group.pgid);
        } catch {
          // ESRCH: the group is already gone
        }
      }
    } else if (record) {
      log?.(
        `found worker groups ${record.groups.map((g) => g.pgid).join(', ')} recorded by a bridge that did not shut down (${file}); without /proc they cannot be verified, so they are left alone. Stop any leftover workers yourself.`,
      );
    }
    unlinkQuietly(file);
  }
  if (killed.length)
    log?.(`killed ${killed.length} leftover worker group(s) of a bridge that did not shut down: ${killed.join(', ')}`);
  if (refused.length)
    log?.(
      `left ${refused.length} recorded process group(s) alone (${refused.join(', ')}): their processes' start times do not match the recording bridge's (the pids were reused), so they are not its workers. Stop them yourself if they are.`,
    );
  return killed;
}
