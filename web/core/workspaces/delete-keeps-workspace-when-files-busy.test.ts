import 'fake-indexeddb/auto';
import { afterEach, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createOpfsWorkspace, deleteWorkspace } from './lifecycle';
import type { OpfsRoot } from './opfs';
import { getWorkspace } from './registry';

let db: HarnessDb;
afterEach(() => db?.close());

/** An OPFS stand-in with one `workspaces` folder whose removeEntry fails while `busy` is set, as Chrome does
 * when another tab or writer holds a file of the directory. */
function fakeOpfs() {
  const children = new Set<string>();
  const state = { busy: false, children };
  const workspaces = {
    async getDirectoryHandle(name: string, opts?: { create?: boolean }) {
      if (!children.has(name)) {
        if (!opts?.create) throw new DOMException('not found', 'NotFoundError');
        children.add(name);
      }
      return { name, kind: 'directory' };
    },
    async removeEntry(name: string) {
      if (state.busy)
        throw new DOMException(
          'An attempt was made to modify an object where modifications are not allowed.',
          'NoModificationAllowedError',
        );
      if (!children.delete(name)) throw new DOMException('not found', 'NotFoundError');
    },
  };
  const root = { getDirectoryHandle: async () => workspaces };
  const opfsRoot = (async () => root) as unknown as OpfsRoot;
  return { state, opfsRoot };
}

it('keeps a private workspace listed, with a code, when its files cannot be deleted; deleting again then works', async () => {
  db = await openHarnessDb(`ws-delete-${crypto.randomUUID()}`);
  const { state, opfsRoot } = fakeOpfs();
  const record = await createOpfsWorkspace(db, 'Busy', { opfsRoot });
  expect(state.children.has(record.id)).toBe(true);

  state.busy = true;
  await expect(deleteWorkspace(db, record.id, { opfsRoot })).rejects.toMatchObject({ code: 'E_WORKSPACE_FILES_BUSY' });
  expect(await getWorkspace(db, record.id)).toBeDefined();
  expect(state.children.has(record.id)).toBe(true);

  state.busy = false;
  await deleteWorkspace(db, record.id, { opfsRoot });
  expect(await getWorkspace(db, record.id)).toBeUndefined();
  expect(state.children.has(record.id)).toBe(false);
});
