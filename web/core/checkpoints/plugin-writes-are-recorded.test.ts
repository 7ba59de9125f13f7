// A WASM plugin's fs.write reaches the workspace through the tool call's ctx.fs (plugins/tool-source.ts →
// host-ops.ts), so the recorder the loop hands out records it like a built-in write, and it reverts.
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createNodeWorkspaceFs, nodeWorkerFactory } from '../../../plugin-host/node';
import { createPluginService } from '../plugins/plugin-service';
import { examplePackage, freshDb } from '../plugins/test-kit';
import { pluginToolSource } from '../plugins/tool-source';
import { changesOf } from './changes';
import { createIdbCheckpointStore } from './idb-store';
import { startTurnCheckpoints } from './recorder';
import { revertSince } from './revert';

it('records a plugin fs.write with the plugin tool name and reverts it to the original bytes', async () => {
  const root = await mkdtemp(join(tmpdir(), 'plugin-checkpoints-'));
  const db = await freshDb();
  const service = createPluginService(db, { createWorker: nodeWorkerFactory() });
  try {
    await writeFile(join(root, 'a.txt'), 'hello world\n');
    await service.registry.import(await examplePackage('replace-text'));
    await service.registry.enable('ws-1', 'example.replace-text');
    const [tool] = await pluginToolSource(service, {
      workspaceId: 'ws-1',
      approval: () => ({ mode: 'ask', approve: async () => true }),
    })();
    const fs = await createNodeWorkspaceFs({ root, access: 'read-write' });
    const store = createIdbCheckpointStore(db, 'ws-1');
    const turn = await startTurnCheckpoints({ store, session: 's1' });
    const name = tool!.schema.name;
    const ctx = {
      fs: turn.fsFor({ id: 'p1', name, step: 1 }, fs),
      workspaceId: 'ws-1',
      callId: 'p1',
      signal: new AbortController().signal,
    };
    const out = await tool!.execute({ path: 'a.txt', find: 'world', replace: 'there' }, ctx);
    expect(out.error).toBeFalsy();
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('hello there\n');
    expect(changesOf(await store.list('s1')).changes.map((c) => [c.path, c.tool, c.callId, c.change])).toEqual([
      ['a.txt', name, 'p1', 'modified'],
    ]);
    await revertSince({ store, fs, session: 's1' }, turn.turn);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('hello world\n');
  } finally {
    await service.dispose();
    db.close();
    await rm(root, { recursive: true, force: true });
  }
});
