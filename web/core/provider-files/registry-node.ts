// The headless registry file: $I_DATA_DIR/workspaces/<id>/provider-files.json, written whole through a temporary
// file and a rename so a crash never leaves half a registry. Node only (reached through web/core/node.ts).
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { HarnessError } from '../contracts';
import type { RegistryStore } from './registry';

export const REGISTRY_FILE = 'provider-files.json';
const MAX_REGISTRY_BYTES = 8 * 1024 * 1024;

export function nodeRegistryStore(workspaceStateDir: string): RegistryStore & { file: string } {
  const file = join(workspaceStateDir, REGISTRY_FILE);
  return {
    file,
    async load() {
      let text: string;
      try {
        const st = await fsp.stat(file);
        if (st.size > MAX_REGISTRY_BYTES)
          throw new HarnessError(
            'E_PROVIDER_FILES_REGISTRY',
            `${file} is larger than ${MAX_REGISTRY_BYTES} bytes. Delete it (it only costs re-uploads).`,
            { file },
          );
        text = await fsp.readFile(file, 'utf8');
      } catch (e) {
        if (HarnessError.isInstance(e)) throw e;
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new HarnessError(
          'E_PROVIDER_FILES_REGISTRY',
          `Cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}). Check its permissions or delete it.`,
          { file },
        );
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new HarnessError(
          'E_PROVIDER_FILES_REGISTRY',
          `${file} is not valid JSON. Delete it (it only costs re-uploads) and run again.`,
          { file },
        );
      }
    },
    async save(value) {
      await fsp.mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fsp.writeFile(tmp, JSON.stringify(value));
      await fsp.rename(tmp, file);
    },
  };
}
