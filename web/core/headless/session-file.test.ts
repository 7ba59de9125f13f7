// `i --session FILE`: the session in one file anywhere, resumed on the next run, checked against the workspace id.
// In-process through runCli (headlessProject) against the scripted model server.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { parseArgs } from './args';
import { headlessProject } from './cli-test-kit';
import { createSessionFileStore, SESSION_FILE_FORMAT } from './session-file';
import { createFileSessionStore } from '../sessions/node';
import { legacyWorkspaceKey } from './workspace-migrate';
import { testWorkspaceId } from './workspace-test-kit';

let server: ModelServer | undefined;
const temps: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'i-session-file-'));
  temps.push(d);
  return d;
};
const model = () => ({ base_url: server!.baseUrl('openai'), model: 'scripted', budget: { context_window: 128_000 } });
type Doc = {
  format: string;
  workspace_id: string;
  workspace: string;
  checkpointSeq: number;
  messages: Array<{ role: string; content: unknown }>;
};
/** The file, its messages without the system prompt (saved too, as in a --session-name session). */
const readDoc = (file: string) => {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Doc;
  return { ...doc, messages: doc.messages.filter((m) => m.role !== 'system') };
};

describe('i --session FILE', () => {
  it('stores the conversation in the file and resumes it on the next run', async () => {
    server = await startModelServer({ script: [{ text: 'Hello, Ada.' }, { text: 'Your name is Ada.' }] });
    const p = headlessProject(model());
    const file = join(tempDir(), 'chat.json');
    const first = await p.run(['--session', file, '-p', 'My name is Ada.']);
    // The one line said every run: a session file keeps no undo records and no references past the run.
    expect(first.stderr).toBe(
      "warning: --session FILE keeps the conversation only: this run's file changes are not recorded for --changes/--revert, and long tool results can be paged back during this run only. Use --session-name NAME to keep both.\n",
    );
    expect(first.code).toBe(0);
    const doc = readDoc(file);
    expect(doc.format).toBe(SESSION_FILE_FORMAT);
    expect(doc.workspace_id).toBe(testWorkspaceId(join(p.root, 'data'), p.dir)); // the registry's UUID
    expect(doc.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Hello, Ada.'],
    ]);

    const second = await p.run(['--session', file, '-p', 'What is my name?']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Your name is Ada.');
    const sent = (server.requests[1]!.body!.messages as Array<{ role: string; content: unknown }>).filter(
      (m) => m.role !== 'system',
    );
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Hello, Ada.'],
      ['user', 'What is my name?'],
    ]);
    expect(readDoc(file).messages).toHaveLength(4);
  });

  it('refuses a file of another workspace with the code and the fix, changes nothing, and resumes with that --workspace-id', async () => {
    server = await startModelServer({ script: [{ text: 'one' }, { text: 'two' }] });
    const a = headlessProject(model());
    const b = headlessProject(model());
    const file = join(tempDir(), 'a.json');
    expect((await a.run(['--session', file, '-p', 'in A'])).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    const idA = readDoc(file).workspace_id;

    const refused = await b.run(['--session', file, '-p', 'in B']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error E_SESSION_WORKSPACE_MISMATCH: /);
    expect(refused.stderr).toContain(`--workspace-id ${idA}`);
    expect(refused.stderr).toContain(`-C ${realpathSync(a.dir)}`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(server.requests).toHaveLength(1);

    // A trusted host that knows B is A's project (moved, another machine) says so with A's id.
    const resumed = await b.run(['--session', file, '--workspace-id', idA, '-p', 'in B']);
    expect(resumed.code).toBe(0);
    expect(readDoc(file).messages).toHaveLength(4);
    expect(readDoc(file)).toMatchObject({ workspace_id: idA, workspace: realpathSync(b.dir) });
  });

  it('refuses a file that is not a session file, leaving it as it was', async () => {
    server = await startModelServer({ script: [{ text: 'never' }] });
    const p = headlessProject(model());
    const file = join(tempDir(), 'notes.json');
    writeFileSync(file, '{"todo": ["milk"]}');
    const r = await p.run(['--session', file, '-p', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error E_SESSION_CORRUPT: .*not an i session file/);
    expect(readFileSync(file, 'utf8')).toBe('{"todo": ["milk"]}');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a checkpoint when another run moved the file on meanwhile', async () => {
    const file = join(tempDir(), 's.json');
    const store = createSessionFileStore({
      file,
      workspaceId: '0f0e0d0c-0b0a-4908-8706-050403020100',
      workspace: '/p',
    });
    const info = await store.create({ title: 't' });
    await store.commit(info.id, [{ kind: 'message', message: { role: 'user', content: 'a' } }], info.checkpointSeq);
    await expect(
      store.commit(info.id, [{ kind: 'message', message: { role: 'user', content: 'b' } }], info.checkpointSeq),
    ).rejects.toMatchObject({ code: 'E_SESSION_CONFLICT' });
    expect((await store.load(info.id)).messages).toEqual([{ role: 'user', content: 'a' }]);
  });

  it('refuses to grow the file past its size cap, keeping the last checkpoint, and to read a file over it', async () => {
    const file = join(tempDir(), 'big.json');
    const store = createSessionFileStore({
      file,
      workspaceId: '0f0e0d0c-0b0a-4908-8706-050403020100',
      workspace: '/p',
      maxBytes: 4000,
    });
    const info = await store.create({ title: 't' });
    const saved = await store.commit(
      info.id,
      [{ kind: 'message', message: { role: 'user', content: 'short' } }],
      info.checkpointSeq,
    );
    const before = readFileSync(file, 'utf8');
    await expect(
      store.commit(
        info.id,
        [{ kind: 'message', message: { role: 'assistant', content: 'x'.repeat(5000) } }],
        saved.checkpointSeq,
      ),
    ).rejects.toMatchObject({ code: 'E_SESSION_FILE_TOO_LARGE' });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const smaller = createSessionFileStore({
      file,
      workspaceId: '0f0e0d0c-0b0a-4908-8706-050403020100',
      workspace: '/p',
      maxBytes: 100,
    });
    await expect(smaller.load(info.id)).rejects.toMatchObject({ code: 'E_SESSION_FILE_TOO_LARGE' });
  });

  it('is refused together with --session-name or the commands that need a session folder', () => {
    expect(() => parseArgs(['--session', 'f.json', '--session-name', 'n', '-p', 'x'])).toThrow(/not both/);
    expect(() => parseArgs(['--session', 'f.json', '--changes'])).toThrow(/--session-name sessions/);
    expect(parseArgs(['--session', 'f.json', '--workspace-id', 'x', '-p', 'hi'])).toMatchObject({
      sessionFile: 'f.json',
      workspaceId: 'x',
    });
  });

  it('leaves --session-name sessions an older i saved under the path-hash id resumable', async () => {
    server = await startModelServer({ script: [{ text: 'Still here.' }] });
    const p = headlessProject(model());
    const workspace = realpathSync(p.dir);
    const old = createFileSessionStore({
      root: join(workspace, '.i', 'sessions'),
      workspace,
      workspaceId: legacyWorkspaceKey(workspace),
    });
    const info = await old.create({ id: 'notes', title: 'notes' });
    await old.commit(
      info.id,
      [
        { kind: 'message', message: { role: 'user', content: 'remember 7' } },
        { kind: 'message', message: { role: 'assistant', content: 'ok' } },
      ],
      info.checkpointSeq,
    );
    const r = await p.run(['--session-name', 'notes', '-p', 'what number?']);
    expect(r.code, r.stderr).toBe(0);
    const sent = (server.requests[0]!.body!.messages as Array<{ role: string; content: unknown }>).filter(
      (m) => m.role !== 'system',
    );
    expect(sent.map((m) => m.content)).toEqual(['remember 7', 'ok', 'what number?']);
  });
});
