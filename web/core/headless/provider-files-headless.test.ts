// Provider Files in headless `i` against the scripted model server's Files endpoints (responses and anthropic):
// an image seen in the first step is uploaded once and referenced by file_id in the next three requests; an
// expired file is uploaded again once; a failed upload is not retried and the image goes as base64 with a notice;
// without provider_operations (or without images "files") nothing is uploaded and the person is told why.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn, type WireProtocol } from '../../../e2e/model-server';
import { headlessProject } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A PNG signature and 30 000 bytes: its base64 (40 000 characters) dwarfs a file_id reference. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(30_000, 7)]);
const B64 = PNG.toString('base64');

const script = (): ScriptTurn[] => [
  { toolCalls: [{ name: 'view_image', arguments: { path: 'shot.png' } }] },
  { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
  { toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
  { text: 'Done.' },
];

function project(protocol: WireProtocol, s: ModelServer, model: Record<string, unknown>, providerJson?: unknown) {
  const p = headlessProject(
    {
      protocol,
      base_url: s.baseUrl(protocol),
      model: 'm',
      max_tokens: 256,
      budget: { context_window: 1_000_000 },
      ...model,
    },
    { 'a.txt': 'text\n' },
  );
  writeFileSync(join(p.dir, 'shot.png'), PNG);
  if (providerJson !== undefined) writeFileSync(join(p.conf, 'provider.json'), JSON.stringify(providerJson));
  return p;
}

const modelRequests = (s: ModelServer) => s.requests.filter((r) => r.protocol !== null);
const uploads = (s: ModelServer) => s.requests.filter((r) => r.method === 'POST' && /\/files$/.test(r.path));

describe.each(['responses', 'anthropic'] as WireProtocol[])('provider Files over %s (headless i)', (protocol) => {
  it('uploads the image once and references it by file_id in the next three requests', async () => {
    server = await startModelServer({ script: script(), files: {} });
    const p = project(
      protocol,
      server,
      { provider_operations: true },
      { images: 'files', account_scope: 'test-account', expires_after_seconds: 86_400 },
    );
    const { code, stderr } = await p.run(['-p', 'Look at shot.png']);
    expect(server.failures).toEqual([]);
    expect(stderr).not.toContain('N_PROVIDER');
    expect(code).toBe(0);
    expect(uploads(server)).toHaveLength(1);
    const [file] = server.files!.list();
    expect(file!.bytes.equals(PNG)).toBe(true);
    const requests = modelRequests(server);
    expect(requests).toHaveLength(4);
    for (const r of requests.slice(1)) {
      expect(r.rawBody).toContain(`"file_id":"${file!.id}"`);
      expect(r.rawBody).not.toContain(B64.slice(0, 200));
      // The bytes per request drop by the image's base64: each request is smaller than the image alone.
      expect(r.rawBody.length).toBeLessThan(B64.length);
    }
    if (protocol === 'anthropic') expect(requests[1]!.headers['anthropic-beta']).toBe('files-api-2025-04-14');
    const registry = JSON.parse(
      readFileSync(
        join(p.root, 'data', 'workspaces', readdirOne(join(p.root, 'data', 'workspaces')), 'provider-files.json'),
        'utf8',
      ),
    );
    expect(registry.records).toMatchObject([{ scope: 'test-account', file_id: file!.id, bytes: PNG.length }]);
  });

  it('uploads again once when the vendor says the file is gone, and once when the local record expired', async () => {
    server = await startModelServer({
      script: (_r, i) => (i % 4 === 0 ? script()[0]! : i % 4 === 3 ? { text: 'Done.' } : script()[1]!),
      files: {},
    });
    const p = project(protocol, server, { provider_operations: true }, { images: 'files' });
    expect((await p.run(['--session-name', 's', '-p', 'Look at shot.png'])).code).toBe(0);
    expect(uploads(server)).toHaveLength(1);
    // The vendor expired it; the local record still looks valid: the request is refused "not found", forgotten, re-sent.
    server.files!.expire(server.files!.list()[0]!.id);
    const second = await p.run(['--session-name', 's', '-p', 'Again']);
    expect(second.stderr).not.toMatch(/warning|error/);
    expect(second.code).toBe(0);
    expect(uploads(server)).toHaveLength(2);
    // The local record's expiry passed: uploaded before the request, no "not found" round trip.
    const dir = join(p.root, 'data', 'workspaces', readdirOne(join(p.root, 'data', 'workspaces')));
    const reg = JSON.parse(readFileSync(join(dir, 'provider-files.json'), 'utf8'));
    reg.records[0].expires_at = Date.now() - 1;
    writeFileSync(join(dir, 'provider-files.json'), JSON.stringify(reg));
    const before = server.requests.length;
    expect((await p.run(['--session-name', 's', '-p', 'Once more'])).code).toBe(0);
    expect(uploads(server)).toHaveLength(3);
    expect(
      server.requests.slice(before).filter((r) => r.protocol !== null && r.rawBody.includes('"file_id"')),
    ).toHaveLength(4);
    expect(server.failures).toEqual([]);
  });

  it('does not retry a failed upload: the image goes as base64 with a notice', async () => {
    server = await startModelServer({ script: script(), files: { failUploads: 1 } });
    const p = project(protocol, server, { provider_operations: true }, { images: 'files' });
    const { code, stderr } = await p.run(['-p', 'Look at shot.png']);
    expect(code).toBe(0);
    expect(uploads(server)).toHaveLength(1);
    expect(stderr).toContain('warning N_PROVIDER_FILES_UPLOAD_FAILED');
    for (const r of modelRequests(server).slice(1)) expect(r.rawBody).toContain(B64.slice(0, 200));
  });

  it('uploads nothing without provider_operations, or without images "files", and says which switch is missing', async () => {
    server = await startModelServer({ script: [...script(), ...script()], files: {} });
    const only = await project(protocol, server, {}, { images: 'files' }).run(['-p', 'Look at shot.png']);
    expect(only.code).toBe(0);
    expect(only.stderr).toContain('warning N_PROVIDER_FILES_NOT_AUTHORISED');
    expect(only.stderr).toContain('provider_operations');
    const other = await project(protocol, server, { provider_operations: true }).run(['-p', 'Look at shot.png']);
    expect(other.code).toBe(0);
    expect(other.stderr).toContain('warning N_PROVIDER_OPERATIONS_UNUSED');
    expect(uploads(server)).toHaveLength(0);
    for (const r of modelRequests(server).filter((_, i) => i % 4 !== 0)) expect(r.rawBody).toContain(B64.slice(0, 200));
  });
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  return names[0]!;
}

describe('gc_expired (optional lifecycle, headless i)', () => {
  async function expiredUpload(model: Record<string, unknown>) {
    server = await startModelServer({ script: [...script(), ...script()], files: {} });
    const p = project(
      'responses',
      server,
      { provider_operations: true, ...model },
      { images: 'files', expires_after_seconds: 3600, gc_expired: true },
    );
    expect((await p.run(['--session-name', 's', '-p', 'Look at shot.png'])).code).toBe(0);
    const dir = join(p.root, 'data', 'workspaces', readdirOne(join(p.root, 'data', 'workspaces')));
    const reg = JSON.parse(readFileSync(join(dir, 'provider-files.json'), 'utf8'));
    reg.records[0].expires_at = Date.now() - 1;
    writeFileSync(join(dir, 'provider-files.json'), JSON.stringify(reg));
    return { p, old: reg.records[0].file_id as string };
  }

  it('with provider_cleanup deletes the expired upload once (as cleanup) before uploading again', async () => {
    const { p, old } = await expiredUpload({ provider_cleanup: true });
    const r = await p.run(['--session-name', 's', '-p', 'Again']);
    expect(r.code).toBe(0);
    const deletes = server!.requests.filter((x) => x.method === 'DELETE');
    expect(deletes.map((x) => x.path)).toEqual([`/v1/files/${old}`]);
    expect(uploads(server!)).toHaveLength(2);
    expect(server!.files!.list().map((f) => f.id)).not.toContain(old);
  });

  it('without provider_cleanup deletes nothing, even with --yolo, and says which key is missing', async () => {
    const { p } = await expiredUpload({});
    const r = await p.run(['--session-name', 's', '--yolo', '-p', 'Again']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning N_PROVIDER_FILES_GC_NOT_AUTHORISED');
    expect(server!.requests.filter((x) => x.method === 'DELETE')).toHaveLength(0);
    expect(server!.files!.list()).toHaveLength(2);
  });
});
