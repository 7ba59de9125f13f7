// One bridge per runtime folder. Probing bridge.json (start-bridge.ts) finds a bridge that is already serving, but
// two bridges started within milliseconds both find no file and both go on. `<runtime_dir>/bridge.lock` closes that
// window: it is created exclusively (O_EXCL, no link followed) before anything starts, holds the owner's pid, start
// time and a nonce, and stays for the bridge's life. A lock whose owner is gone (a SIGKILLed bridge) is removed and
// taken. Two starts that both find the same stale lock could both remove it; each checks again that the lock is
// still its own before it writes bridge.json, so at most one of them serves.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { BridgeError } from './errors';
import { processStartTime, sameProcess } from './process-groups';
import { createExclusive, readPrivateFile, unlinkQuietly } from './runtime-dir';

interface LockContent {
  pid: number;
  start: string | null;
  nonce: string;
}

const parse = (text: string | undefined): LockContent | undefined => {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as LockContent;
    return Number.isInteger(v?.pid) &&
      v.pid > 0 &&
      (v.start === null || typeof v.start === 'string') &&
      typeof v.nonce === 'string'
      ? v
      : undefined;
  } catch {
    return undefined;
  }
};

const running = (runtimeDir: string, pid: number | undefined) =>
  new BridgeError(
    'E_BRIDGE_RUNNING',
    `Another i-bridge${pid === undefined ? '' : ` (pid ${pid})`} is running or starting with the runtime folder ${runtimeDir}. Use that one, stop it first, or give this one its own I_RUNTIME_DIR.`,
    { pid: pid ?? null, runtime_dir: runtimeDir },
  );

export class StartLock {
  private constructor(
    readonly file: string,
    private readonly nonce: string,
  ) {}

  /** Takes the lock of `runtimeDir` or refuses with E_BRIDGE_RUNNING while a live bridge holds it. */
  static acquire(runtimeDir: string): StartLock {
    const file = join(runtimeDir, 'bridge.lock');
    const nonce = randomBytes(16).toString('hex');
    const content = `${JSON.stringify({ pid: process.pid, start: processStartTime(process.pid), nonce })}\n`;
    let holder: number | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (createExclusive(file, content)) return new StartLock(file, nonce);
      const owner = parse(readPrivateFile(file));
      holder = owner?.pid;
      // This very process counts as alive: tests (and embedders) may run several bridges in one process.
      if (owner && sameProcess({ pgid: owner.pid, start: owner.start })) throw running(runtimeDir, owner.pid);
      // A dead owner, or not a lock of ours at all (garbage, a planted link): remove the name, never follow it.
      unlinkQuietly(file);
    }
    throw running(runtimeDir, holder);
  }

  /** Still ours: nobody removed it and took it since (see the race in the header). */
  held(): boolean {
    return parse(readPrivateFile(this.file))?.nonce === this.nonce;
  }

  release(): void {
    if (this.held()) unlinkQuietly(this.file);
  }
}
