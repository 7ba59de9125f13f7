// Shared set-up for the runtime's Node tests (not exported from the folder's faces): a temporary workspace folder,
// a plugin built from a fixture module, and one invocation in a real worker_threads worker.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPackage, sha256Hex } from '../package';
import { createNodeWorkspaceFs } from '../fs/node';
import type { WorkspaceAccess } from '../fs';
import type { PluginPermissions, WriteApproval } from './host-ops';
import { invokePlugin, type InvokeOptions, type InvokeResult, type RuntimePlugin } from './invoke';
import { MemoryKvStore, type KvStore } from './kv-store';
import { nodeWorkerFactory } from './node-worker';

export async function tempWorkspace(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'runtime-test-'));
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

export async function pluginFrom(
  wasm: Uint8Array,
  permissions: PluginPermissions = { workspace: 'read-write', storage: true },
  id = 'test.recorder',
): Promise<RuntimePlugin> {
  return { id, version: '1.0.0', sha256: await sha256Hex(wasm), permissions, tools: [{ name: 'run' }], wasm };
}

export interface RunOptions extends Partial<Omit<InvokeOptions, 'plugin' | 'fs'>> {
  root?: string;
  access?: WorkspaceAccess;
  kv?: KvStore;
  approval?: WriteApproval;
}

export async function run(plugin: RuntimePlugin, options: RunOptions = {}): Promise<InvokeResult> {
  const { root, access = 'read-write', ...rest } = options;
  return invokePlugin({
    plugin,
    tool: 'run',
    arguments: {},
    workspaceId: 'ws-1',
    fs: root ? await createNodeWorkspaceFs({ root, access }) : null,
    kv: new MemoryKvStore(),
    approval: { mode: 'auto' },
    createWorker: nodeWorkerFactory(),
    timeoutMs: 10_000,
    ...rest,
  });
}

/** A real .hplugin.zip around a fixture module, packed and validated by the shared packager. */
export async function packFixture(
  wasm: Uint8Array,
  {
    id = 'test.recorder',
    version = '1.0.0',
    permissions = { workspace: 'read-write', storage: true } as PluginPermissions,
    tools = ['run'],
  } = {},
): Promise<Uint8Array> {
  const manifest = {
    format_version: 1,
    id,
    name: 'Recorder',
    version,
    runtime: 'harness-wasm-v1',
    entry: 'plugin.wasm',
    sha256: '0'.repeat(64),
    permissions: { workspace: permissions.workspace, storage: permissions.storage },
    tools: tools.map((name) => ({
      name,
      description: 'Runs the script.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    })),
  };
  return (await packPackage({ manifest, wasm, license: 'MIT' })).bytes;
}
