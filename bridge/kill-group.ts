// An evicted worker dies with its whole process group: a worker that forked a grandchild must not leave it
// running. Workers are spawned `detached` (their own group, pgid = pid), so a negative pid reaches everyone.
// SIGTERM first for a clean exit, SIGKILL after a short grace whatever the leader did (it may trap SIGTERM, or
// exit while its grandchild lingers). Windows has no groups: `taskkill /T /F` kills the tree.
import { spawnSync } from 'node:child_process';

const signalGroup = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
};

/** SIGTERM the group, SIGKILL it after `graceMs`; `done` runs once the SIGKILL has been sent. */
export function killGroup(pid: number, graceMs: number, done?: () => void): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    done?.();
    return;
  }
  signalGroup(pid, 'SIGTERM');
  setTimeout(() => {
    signalGroup(pid, 'SIGKILL');
    done?.();
  }, graceMs);
}

/** For process exit, where no timer will ever run. */
export function killGroupNow(pid: number): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    return;
  }
  signalGroup(pid, 'SIGKILL');
}
