import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createNodeWorkspaceFs, nodeWorkerFactory } from '../../../plugin-host/node';
import type { WriteApprovalRequest } from '../../../plugin-host';
import { createPluginService } from './plugin-service';
import { examplePackage, freshDb } from './test-kit';
import { pluginToolSource } from './tool-source';
import { writeApprovalDiff } from './write-diff';

it('offers enabled plugins as external ask tools pinned at task start, runs them with a diff-showing write approval', async () => {
  const root = await mkdtemp(join(tmpdir(), 'plugin-tools-'));
  const db = await freshDb();
  const service = createPluginService(db, { createWorker: nodeWorkerFactory() });
  try {
    await writeFile(join(root, 'a.txt'), 'hello world\n');
    await service.registry.import(await examplePackage('replace-text'));
    await service.registry.import(await examplePackage('word-count'));
    await service.registry.enable('ws-1', 'example.replace-text');
    const asked: WriteApprovalRequest[] = [];
    let answer = true;
    const source = pluginToolSource(service, {
      workspaceId: 'ws-1',
      approval: () => ({ mode: 'ask', approve: async (request) => (asked.push(request), answer) }),
    });

    const tools = await source();
    expect(tools.map((t) => [t.schema.name, t.approval, t.external])).toEqual([
      ['example_replace-text--replace_text', 'ask', true],
    ]);
    const fs = await createNodeWorkspaceFs({ root, access: 'read-write' });
    const ctx = { fs, workspaceId: 'ws-1', callId: 'c1', signal: new AbortController().signal };

    // Uninstalling after the task started does not take the tool away from that task.
    await service.registry.uninstall('example.replace-text');
    const ok = await tools[0]!.execute({ path: 'a.txt', find: 'world', replace: 'there' }, ctx);
    expect(ok.error).toBeFalsy();
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('hello there\n');
    expect(writeApprovalDiff(asked[0]!)).toContain('-hello world\n+hello there');

    answer = false;
    const denied = await tools[0]!.execute({ path: 'a.txt', find: 'there', replace: 'again' }, ctx);
    expect(denied.error).toBe(true);
    expect(denied.output).toContain('E_HOST_WRITE_DENIED');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('hello there\n');
    // A new task sees the registry as it is now: nothing enabled.
    expect(await source()).toEqual([]);
  } finally {
    await service.dispose();
    db.close();
    await rm(root, { recursive: true, force: true });
  }
});
