// The agent host driven directly in Node (as worker.ts exposes it): fake-indexeddb, a real folder, the scripted model
// server, and an in-memory Web Locks manager with the browser's steal semantics, so two hosts over one database play
// two tabs. Shared by the host's test files.
import 'fake-indexeddb/auto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent, TurnResult } from '../agent/types';
import { saveModel } from '../app-agent/agent-settings';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { createAgentHost } from './host';
import type { AgentHostApi, SessionRole, TurnPorts, TurnRequest } from './protocol';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

/**
 * Web Locks as Chromium implements them, for one lock name at a time: requests are granted a task later; ifAvailable
 * answers null when held; a plain request waits in a queue (its signal takes it out); steal rejects the holder's
 * request with AbortError and takes the lock at once.
 */
export function lockManager() {
  type Grant = () => void;
  const held = new Map<string, (e: unknown) => void>();
  const queues = new Map<string, Grant[]>();
  const later = () => new Promise((r) => setTimeout(r, 0));
  const next = (name: string) => {
    const queue = queues.get(name) ?? [];
    const grant = queue.shift();
    if (grant) grant();
  };
  return {
    request(
      name: string,
      options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal },
      callback: (lock: unknown) => Promise<unknown>,
    ) {
      if (held.has(name) && options.ifAvailable) return later().then(() => callback(null));
      return new Promise((resolve, reject) => {
        const grant = () => {
          held.set(name, reject);
          void later()
            .then(() => callback({ name }))
            .then((value) => {
              if (held.get(name) === reject) {
                held.delete(name);
                next(name);
              }
              resolve(value);
            });
        };
        if (options.steal) {
          held.get(name)?.(new DOMException('The lock was stolen.', 'AbortError'));
          grant();
        } else if (!held.has(name)) grant();
        else {
          const queue = queues.get(name) ?? [];
          queues.set(name, [...queue, grant]);
          options.signal?.addEventListener('abort', () => {
            queues.set(
              name,
              (queues.get(name) ?? []).filter((g) => g !== grant),
            );
            reject(new DOMException('The request was aborted.', 'AbortError'));
          });
        }
      });
    },
  };
}

export async function setup(
  script: Parameters<typeof startModelServer>[0]['script'],
  model: Record<string, unknown> = {},
) {
  server = await startModelServer({ script });
  dir = await mkdtemp(join(tmpdir(), 'agent-host-'));
  await writeFile(join(dir, 'notes.txt'), 'colour: red\n');
  const dbName = `agent-host-${Math.random()}`;
  const db = await openHarnessDb(dbName);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  await saveModel(db, null, {
    preset: null,
    config: {
      budget: { context_window: 1_000_000 },
      protocol: 'openai',
      base_url: server.baseUrl('openai'),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 512,
      ...model,
    },
  });
  const locks = lockManager();
  const root = dir;
  const tab = async (options: { attach?: boolean } = {}) => {
    const roles: Array<[string, SessionRole]> = [];
    const host = createAgentHost({
      createFs: () => createNodeWorkspaceFs({ root, access: 'read-write' }),
      locks,
      batchMs: 5,
    });
    await host.init({ dbName }, (id, role) => roles.push([id, role]));
    if (options.attach !== false)
      await host.attach({
        id: 'ws-1',
        rootName: 'project',
        access: 'read-write',
        handle: {} as FileSystemDirectoryHandle,
      });
    return { host, roles };
  };
  return { db, tab, dir: root, server };
}

/** Ports that record what the page would receive and answer approvals with `answer`. */
export function recorder(answer: Awaited<ReturnType<TurnPorts['ask']>> = 'allow') {
  const batches: AgentEvent[][] = [];
  const asked: string[] = [];
  let end!: (r: TurnResult) => void;
  const result = new Promise<TurnResult>((r) => (end = r));
  const ports: TurnPorts = {
    events: (batch) => void batches.push(batch),
    end: (r) => end(r),
    ask: async (_id, request) => (asked.push(request.name), answer),
    askWrite: async () => false,
    cancelAsk: () => undefined,
  };
  return { ports, batches, asked, result };
}

export const run = async (
  host: AgentHostApi,
  sessionId: string | null,
  content: string,
  answer?: 'allow' | 'deny',
  extra: Partial<TurnRequest> = {},
) => {
  const r = recorder(answer);
  const started = await host.startTurn({ workspaceId: 'ws-1', sessionId, content, ...extra }, r.ports);
  return { ...r, started, final: await r.result };
};
