// Guards the claim in CONTEXT.md and fsa-workspace-fs.ts that Chromium's File System Access API neither lists
// nor opens symbolic links in a real folder. A real folder handle cannot come from showDirectoryPicker under
// automation, so the folder is dropped onto a page through CDP (Input.dispatchDragEvent with files) and
// DataTransferItem.getAsFileSystemHandle() hands out the same kind of handle the picker does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../e2e/chromium';

const page = `<!doctype html><body style="margin:0"><div id="drop" style="width:300px;height:300px"></div><script>
window.result = null;
const d = document.getElementById('drop');
d.addEventListener('dragover', (e) => e.preventDefault());
d.addEventListener('drop', async (e) => {
  e.preventDefault();
  const out = { entries: [] };
  const h = await e.dataTransfer.items[0].getAsFileSystemHandle();
  for await (const [name, child] of h.entries()) out.entries.push(name + ':' + child.kind);
  for (const n of ['real.txt', 'alias.txt', 'leak.txt', 'dangling']) {
    try { out[n] = 'file:' + (await (await (await h.getFileHandle(n)).getFile()).text()); } catch (err) { out[n] = err.name; }
  }
  for (const n of ['realdir', 'aliasdir', 'outdir']) {
    try { await h.getDirectoryHandle(n); out[n] = 'directory'; } catch (err) { out[n] = err.name; }
  }
  window.result = out;
});
</script>`;

describe('Chromium File System Access and symbolic links in a real folder', () => {
  let base: string;
  let server: http.Server;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-fsa-links-'));
    const ws = join(base, 'ws');
    await mkdir(join(ws, 'realdir'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(ws, 'real.txt'), 'inside');
    await writeFile(join(base, 'outside', 'secret.txt'), 'secret');
    await symlink('real.txt', join(ws, 'alias.txt'));
    await symlink('realdir', join(ws, 'aliasdir'), 'dir');
    await symlink('../outside/secret.txt', join(ws, 'leak.txt'));
    await symlink('../outside', join(ws, 'outdir'), 'dir');
    await symlink('nowhere', join(ws, 'dangling'));
    server = http.createServer((_q, r) => r.setHeader('content-type', 'text/html').end(page)).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    server.close();
    await rm(base, { recursive: true, force: true });
  });

  it('hides every symlink: not listed, and opening one by name is NotFoundError, inside or outside targets alike', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const cdp = await tab.context().newCDPSession(tab);
      const data = { items: [], files: [join(base, 'ws')], dragOperationsMask: 1 };
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await cdp.send('Input.dispatchDragEvent', { type, x: 100, y: 100, data });
      }
      await tab.waitForFunction(() => (window as unknown as { result: unknown }).result !== null, null, {
        timeout: 10_000,
      });
      const result = (await tab.evaluate(
        () => (window as unknown as { result: Record<string, unknown> }).result,
      )) as Record<string, unknown> & { entries: string[] };
      expect([...result.entries].sort()).toEqual(['real.txt:file', 'realdir:directory']);
      expect(result).toMatchObject({
        'real.txt': 'file:inside',
        realdir: 'directory',
        'alias.txt': 'NotFoundError',
        'leak.txt': 'NotFoundError',
        dangling: 'NotFoundError',
        aliasdir: 'NotFoundError',
        outdir: 'NotFoundError',
      });
    } finally {
      await browser.close();
    }
  });
});
