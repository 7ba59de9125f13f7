// `i --provider-action`: the management channel against the scripted model server's Files endpoints. It needs
// provider_operations (exit 2 naming the key), lists with the local registry's marks, and its confirmation rules
// hold: a plain delete asks (no terminal: refused, --yolo changes nothing), provider_cleanup lets only a
// `cleanup: true` delete of this app's own upload run unattended, and reconcile forgets records the vendor lost.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { headlessProject, type HeadlessProject } from './cli-test-kit';
import { runProviderAction } from './provider-action';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);

async function setUp(model: Record<string, unknown> = {}) {
  server = await startModelServer({
    script: [{ toolCalls: [{ name: 'view_image', arguments: { path: 'shot.png' } }] }, { text: 'Done.' }],
    files: {},
  });
  const p = headlessProject({
    protocol: 'responses',
    base_url: server.baseUrl('responses'),
    model: 'm',
    max_tokens: 256,
    budget: { context_window: 1_000_000 },
    provider_operations: true,
    ...model,
  });
  writeFileSync(join(p.dir, 'shot.png'), PNG);
  writeFileSync(join(p.conf, 'provider.json'), JSON.stringify({ images: 'files' }));
  expect((await p.run(['-p', 'look'])).code).toBe(0);
  const ours = server.files!.list()[0]!.id;
  // A file this app did not upload.
  const form = new FormData();
  form.append('purpose', 'user_data');
  form.append('file', new Blob([new Uint8Array([1, 2])]), 'other.bin');
  const theirs = (
    (await (await fetch(`${server.baseUrl('responses')}/files`, { method: 'POST', body: form })).json()) as {
      id: string;
    }
  ).id;
  return { p, ours, theirs };
}

async function action(
  p: HeadlessProject,
  json: unknown,
  opts: { confirm?: ((q: string) => Promise<boolean>) | null; extra?: string[]; model?: Record<string, unknown> } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await runProviderAction({
    argv: [
      '-C',
      p.dir,
      '--config',
      join(p.conf, 'model.json'),
      '--provider-action',
      JSON.stringify(json),
      ...(opts.extra ?? []),
    ],
    env: { HOME: p.root, I_CONFIG_DIR: p.conf, I_DATA_DIR: join(p.root, 'data') },
    cwd: p.dir,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
    confirm: opts.confirm === undefined ? null : opts.confirm,
  });
  return {
    code,
    stdout,
    stderr,
    event:
      stdout && opts.extra?.includes('--json')
        ? (JSON.parse(stdout.trim().split('\n').at(-1)!) as {
            type: string;
            result?: Record<string, unknown>;
            error?: { code: string; message: string };
          })
        : null,
  };
}

const deletes = (s: ModelServer) => s.requests.filter((r) => r.method === 'DELETE');

describe('i --provider-action', () => {
  it('is refused with exit 2 naming provider_operations when the model config does not allow operations', async () => {
    const { p } = await setUp();
    writeFileSync(
      join(p.conf, 'model.json'),
      JSON.stringify({ protocol: 'responses', base_url: server!.baseUrl('responses') }),
    );
    const before = server!.requests.length;
    const r = await action(p, { action: 'list' }, { extra: ['--json'] });
    expect(r.code).toBe(2);
    expect(r.event?.error).toMatchObject({ code: 'E_PROVIDER_OPERATIONS_OFF' });
    expect(r.event?.error?.message).toContain('"provider_operations": true');
    expect(server!.requests.length).toBe(before);
  });

  it('lists remote files with size and marks the ones this app uploaded, as one provider_manage event', async () => {
    const { p, ours, theirs } = await setUp();
    const r = await action(p, { action: 'list' }, { extra: ['--json'] });
    expect(r.code).toBe(0);
    expect(r.event?.type).toBe('provider_manage');
    expect(r.event?.result).toMatchObject({
      action: 'list',
      files: [
        { file_id: ours, bytes: PNG.length, known: true },
        { file_id: theirs, bytes: 2, known: false },
      ],
    });
    const get = await action(p, { action: 'get', file_id: ours });
    expect(get.stdout).toContain(`${ours}  ${PNG.length} bytes`);
    expect(get.stdout).toContain('(uploaded by this app)');
  });

  it('a plain delete without a terminal is refused, even with --yolo, and nothing is sent', async () => {
    const { p, ours } = await setUp();
    const r = await action(p, { action: 'delete', file_id: ours }, { extra: ['--yolo', '--json'] });
    expect(r.code).toBe(2);
    expect(r.event?.error?.code).toBe('E_PROVIDER_CONFIRM_NEEDS_TTY');
    expect(deletes(server!)).toHaveLength(0);
  });

  it('a plain delete asks: "no" keeps the file, "yes" sends an empty-bodied DELETE and forgets the record', async () => {
    const { p, ours } = await setUp();
    const questions: string[] = [];
    const no = await action(
      p,
      { action: 'delete', file_id: ours },
      { confirm: async (q) => (questions.push(q), false), extra: ['--yolo'] },
    );
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('E_PROVIDER_DELETE_DECLINED');
    expect(questions[0]).toContain(`Delete the remote file ${ours} (uploaded by this app)`);
    expect(deletes(server!)).toHaveLength(0);
    const yes = await action(p, { action: 'delete', file_id: ours }, { confirm: async () => true });
    expect(yes.code).toBe(0);
    expect(deletes(server!)).toHaveLength(1);
    expect(deletes(server!)[0]!.rawBody).toBe('');
    const list = await action(p, { action: 'list' }, { extra: ['--json'] });
    expect((list.event?.result as { files: unknown[] }).files).toHaveLength(1);
  });

  it("provider_cleanup lets only a cleanup: true delete of this app's own upload run unattended", async () => {
    const { p, ours, theirs } = await setUp({ provider_cleanup: true });
    expect((await action(p, { action: 'delete', file_id: ours }, { extra: ['--json'] })).event?.error?.code).toBe(
      'E_PROVIDER_CONFIRM_NEEDS_TTY',
    );
    expect(
      (await action(p, { action: 'delete', file_id: theirs, cleanup: true }, { extra: ['--json'] })).event?.error?.code,
    ).toBe('E_PROVIDER_CLEANUP_NOT_OURS');
    expect(deletes(server!)).toHaveLength(0);
    const ok = await action(p, { action: 'delete', file_id: ours, cleanup: true }, { extra: ['--json'] });
    expect(ok.event?.result).toMatchObject({ action: 'delete', file_id: ours, confirmed_by: 'provider_cleanup' });
    expect(deletes(server!)).toHaveLength(1);
  });

  it('cleanup: true without provider_cleanup still needs the person', async () => {
    const { p, ours } = await setUp();
    expect(
      (await action(p, { action: 'delete', file_id: ours, cleanup: true }, { extra: ['--json'] })).event?.error?.code,
    ).toBe('E_PROVIDER_CONFIRM_NEEDS_TTY');
    expect(deletes(server!)).toHaveLength(0);
  });

  it('reconcile forgets local records of files the provider lost and reports remote files it does not know', async () => {
    const { p, ours, theirs } = await setUp();
    server!.files!.expire(ours);
    const r = await action(p, { action: 'reconcile' }, { extra: ['--json'] });
    expect(r.event?.result).toEqual({
      action: 'reconcile',
      remote: 1,
      complete: true,
      unknown_remote: [theirs],
      forgotten_local: [ours],
    });
    expect(deletes(server!)).toHaveLength(0);
  });
});
