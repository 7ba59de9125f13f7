// Best-effort guard for a bridge that was SIGKILLed (or lost power to its event loop) before it could kill its
// workers. Each bridge records the process-group ids it started in `<runtime_dir>/groups/<bridge pid>.json`
// (0600, replaced atomically when a group starts or has been sent SIGKILL, deleted when none is left); a new bridge
// start kills the groups recorded by a bridge that is no longer alive, then deletes that record. Workers should
// still exit on stdin EOF: this only catches the ones that do not.
//
// A record is a request to SIGKILL whole process groups, so it is never taken on trust (anyone who could write the
// folder could name any process of this user). Each bridge start draws a random nonce, writes it into its record
// and gives it to every worker and MCP server it spawns as I_BRIDGE_NONCE. A later start kills a recorded group only
// after it has found, in /proc/<pid>/environ, a live member of that group carrying the record's nonce: a group id
// is unique while the group exists, so that member proves the group is the one the dead bridge started, whatever
// happened to its leader or to reused pids. Without /proc (macOS, BSD) nothing can be verified: the record is
// logged and removed, never acted on. Windows has no process groups and records nothing.
//
// A recorded bridge is alive when its pid runs with the recorded start time (/proc/<pid>/stat field 22 on Linux):
// its record is left alone.
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { preparePrivateDir, readPrivateFile, unlinkQuietly, writePrivateFile } from './runtime-dir';

/** The environment variable that carries a bridge start's nonce to the processes it spawns. */
export const NONCE_ENV = 'I_BRIDGE_NONCE';
const NONCE = /^[0-9a-f]{32}$/;

interface GroupEntry {
  pgid: number;
  start: string | null;
}

interface GroupFile {
  version: 2;
  bridge: GroupEntry;
  nonce: string;
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
  /** Goes into the record and into the environment of every process this bridge spawns. */
  readonly nonce = randomBytes(16).toString('hex');
  private readonly groups = new Map<number, string | null>();
  private readonly self: GroupEntry = { pgid: process.pid, start: processStartTime(process.pid) };
  private broken = false;

  constructor(
    readonly dir: string,
    private readonly log?: (line: string) => void,
  ) {
    this.file = join(dir, `${process.pid}.json`);
  }

  /** What a spawned worker or MCP server gets on top of its scrubbed environment, so a later start can verify it. */
  get env(): Record<string, string> {
    return { [NONCE_ENV]: this.nonce };
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
    const content: GroupFile = { version: 2, bridge: this.self, nonce: this.nonce, groups: [...this.groups].map(([pgid, start]) => ({ pgid, start })) };
    try {
      preparePrivateDir(this.dir);
      writePrivateFile(this.file, `${JSON.stringify(content)}\n`);
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

function parseRecord(text: string | undefined): GroupFile | undefined {
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as GroupFile;
    const ok = r?.version === 2 && isEntry(r.bridge) && typeof r.nonce === 'string' && NONCE.test(r.nonce) && Array.isArray(r.groups) && r.groups.every(isEntry);
    return ok ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Live processes by process group, from /proc (Linux). */
function membersByGroup(): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const pgrp = Number(fields[2]);
      const list = groups.get(pgrp);
      if (list) list.push(Number(name));
      else groups.set(pgrp, [Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  return groups;
}

/** Whether `pid` was started with `I_BRIDGE_NONCE=<nonce>` (another user's process cannot be read: false). */
function carriesNonce(pid: number, nonce: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${NONCE_ENV}=${nonce}`);
  } catch {
    return false;
  }
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
  let members: Map<number, number[]> | undefined;
  for (const name of names) {
    if (!/^\d+\.json$/.test(name) || Number(name.slice(0, -5)) === process.pid) continue;
    const file = join(dir, name);
    const record = parseRecord(readPrivateFile(file));
    if (record && sameProcess(record.bridge)) continue; // that bridge is alive and owns its workers
    if (record && process.platform === 'linux') {
      members ??= membersByGroup();
      for (const group of record.groups) {
        if (!(members.get(group.pgid) ?? []).some((pid) => carriesNonce(pid, record.nonce))) {
          if (members.has(group.pgid)) refused.push(group.pgid);
          continue; // gone, or not the group that bridge started: not ours to kill
        }
        try {
          process.kill(-group.pgid, 'SIGKILL');
          killed.push(group.pgid);
        } catch {
          // ESRCH: the group is already gone
        }
      }
    } else if (record) {
      log?.(`found worker groups ${record.groups.map((g) => g.pgid).join(', ')} recorded by a bridge that did not shut down (${file}); without /proc they cannot be verified, so they are left alone. Stop any leftover workers yourself.`);
    }
    unlinkQuietly(file);
  }
  if (killed.length) log?.(`killed ${killed.length} leftover worker group(s) of a bridge that did not shut down: ${killed.join(', ')}`);
  if (refused.length) log?.(`left ${refused.length} recorded process group(s) alone (${refused.join(', ')}): none of their processes carries the recording bridge's nonce, so they are not its workers.`);
  return killed;
}
