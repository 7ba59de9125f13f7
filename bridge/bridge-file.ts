// `<runtime_dir>/bridge.json`: how local tools (headless `i`) find a running bridge and its local token. Written
// 0600 through runtime-dir.ts (exclusive temporary name, rename; no link followed), read the same way, and removed on
// exit only while it still names this process.
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { BridgeError } from './errors';
import type { BridgeFile } from './protocol';
import { readPrivateFile, unlinkQuietly, writePrivateFile } from './runtime-dir';

const pidRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether `url` is a bridge that accepts `token` and reports `pid` (a recycled pid or a dead port answers no). One
 * overall deadline: a server that sends its head and then stalls must not hang this start.
 */
const answersAsBridge = (url: string, token: string, pid: number) =>
  new Promise<boolean>((resolve) => {
    let settled = false;
    const done = (answer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.destroy();
      resolve(answer);
    };
    const deadline = setTimeout(() => done(false), 1500);
    const req = httpRequest(
      `${url}/v1/status`,
      { headers: { authorization: `Bearer ${token}` }, timeout: 1000, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body = (body + c).slice(0, 65536)));
        res.on('end', () => {
          try {
            done(res.statusCode === 200 && (JSON.parse(body) as { pid?: unknown }).pid === pid);
          } catch {
            done(false);
          }
        });
        res.on('error', () => done(false));
        res.on('close', () => done(false)); // after 'end' this changes nothing
      },
    );
    req.on('timeout', () => done(false));
    req.on('error', () => done(false));
    req.end();
  });

/**
 * Refuses to start when `<runtime_dir>/bridge.json` names a bridge that is still running: this start would
 * overwrite its file, and removing the file on exit would leave the other bridge undiscoverable by local tools.
 * A file left by a SIGKILLed bridge (its pid gone, reused, or not answering) is simply replaced.
 */
export async function refuseIfRunning(runtimeDir: string): Promise<void> {
  const file = join(runtimeDir, 'bridge.json');
  let content: Partial<BridgeFile>;
  try {
    content = JSON.parse(readPrivateFile(file) ?? '') as Partial<BridgeFile>;
  } catch {
    return; // none, unreadable, or not a plain file of ours: replaced (never written through)
  }
  const { url, token, pid } = content;
  if (
    typeof url !== 'string' ||
    typeof token !== 'string' ||
    typeof pid !== 'number' ||
    pid === process.pid ||
    !/^http:\/\/127\.0\.0\.1:\d+$/.test(url)
  )
    return;
  if (!pidRunning(pid) || !(await answersAsBridge(url, token, pid))) return;
  throw new BridgeError(
    'E_BRIDGE_RUNNING',
    `Another i-bridge (pid ${pid}) is running at ${url} with the runtime folder ${runtimeDir}. Use that one, stop it first, or give this one its own I_RUNTIME_DIR.`,
    { pid, url, runtime_dir: runtimeDir },
  );
}

export function writeBridgeFile(runtimeDir: string, content: BridgeFile): string {
  const file = join(runtimeDir, 'bridge.json');
  try {
    writePrivateFile(file, `${JSON.stringify(content)}\n`);
  } catch (error) {
    throw new BridgeError(
      'E_RUNTIME_DIR_UNUSABLE',
      `Could not write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Set I_RUNTIME_DIR to a folder you can write.`,
      { runtime_dir: runtimeDir },
    );
  }
  return file;
}

export function removeBridgeFile(file: string | undefined): void {
  if (!file) return;
  try {
    const content = JSON.parse(readPrivateFile(file) ?? '') as BridgeFile;
    if (content.pid === process.pid) unlinkQuietly(file); // another bridge may have replaced it since
  } catch {
    // gone, or not ours to remove
  }
}
