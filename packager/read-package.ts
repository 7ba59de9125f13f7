// Reading a package file for verify and run: at most the package size cap + 1 bytes (validation refuses a bigger
// file as E_PACKAGE_TOO_LARGE), so /dev/zero or a pipe that never ends cannot exhaust memory.
import { open } from 'node:fs/promises';
import { PACKAGE_LIMITS } from '../plugin-host';
import { readProblem } from './file-errors';

/** What a missing package file usually means. */
export const PACKAGE_MISSING = 'Check the path, or build the package first with "hplugin pack".';

/** `deadline.check(step)` throws when a run's budget is spent; verify has none. */
export async function readPackage(file: string, deadline?: { check(step: string): void }): Promise<Uint8Array> {
  const problem = (e: NodeJS.ErrnoException) => ({
    code: 'E_FILE_READ',
    message: readProblem(file, e, undefined, PACKAGE_MISSING),
  });
  const handle = await open(file, 'r').catch((e: NodeJS.ErrnoException) => {
    throw problem(e);
  });
  try {
    const buffer = new Uint8Array(PACKAGE_LIMITS.packageBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      deadline?.check('reading the package');
      const { bytesRead } = await handle
        .read(buffer, length, buffer.length - length, null)
        .catch((e: NodeJS.ErrnoException) => {
          throw problem(e);
        });
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
