// Shared set-up for this folder's Node tests (not exported from index.ts): a fresh fake-IndexedDB database and
// the example packages that `npm run plugins` writes.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openHarnessDb, type HarnessDb } from '../storage';

let n = 0;
export const freshDb = (): Promise<HarnessDb> => openHarnessDb(`plugins-test-${process.pid}-${Date.now()}-${++n}`);

const PLUGINS = resolve(import.meta.dirname, '../../../dist/plugins');

export async function examplePackage(name: 'word-count' | 'notes' | 'replace-text' | 'list-tree'): Promise<Uint8Array> {
  const file = resolve(PLUGINS, `${name}.hplugin.zip`);
  if (!existsSync(file)) throw new Error(`${file} is missing. Build the example plugins first: npm run plugins`);
  return new Uint8Array(await readFile(file));
}
