// The file preview shows pictures: a real PNG opens as an image (decoded by the browser, from a blob: URL the CSP
// allows), while a file only named .png shows as text, and the blob URL is released when the dialog closes.
import { expect, it } from 'vitest';
import { createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const app = useServedApp();

// A 2x1 PNG (red, blue), 8-bit RGB.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==';

it('previews a PNG as a picture and a text file named .png as text', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  const id = await createPrivateWorkspace(page, 'Pictures');
  await page.evaluate(
    async ({ wid, png }) => {
      const dir = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(wid);
      const put = async (name: string, data: BufferSource | string) => {
        const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
        await w.write(data);
        await w.close();
      };
      await put(
        'dot.png',
        Uint8Array.from(atob(png), (c) => c.charCodeAt(0)),
      );
      await put('not-really.png', 'just text in disguise');
    },
    { wid: id, png: PNG_BASE64 },
  );
  await page.reload();

  await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'dot.png', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'dot.png' });
  const img = dialog.getByRole('img', { name: 'The picture dot.png' });
  await img.waitFor();
  await page.waitForFunction(
    () => (document.querySelector('.image-preview img') as HTMLImageElement | null)?.complete === true,
  );
  const shown = await img.evaluate((el: HTMLImageElement) => ({
    src: el.src,
    width: el.naturalWidth,
    height: el.naturalHeight,
  }));
  expect(shown.src).toMatch(/^blob:/);
  expect([shown.width, shown.height]).toEqual([2, 1]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  // Closing released the blob: the URL no longer loads.
  const released = await page.evaluate(
    (src) =>
      fetch(src).then(
        () => false,
        () => true,
      ),
    shown.src,
  );
  expect(released).toBe(true);

  expect(await readFileThroughUi(page, 'not-really.png')).toBe('just text in disguise');
});
