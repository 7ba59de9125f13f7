// Settings' tabs in the built app: beside the panel as a vertical list in a wide window, above it in a narrow one
// (ui-layout-and-language.spec.ts: every tab in view at 390 px); either way the arrow keys (both pairs), Home and End
// move between tabs and the open tab has focus.
import { expect, it } from 'vitest';
import { openApp, useServedApp } from './harness';

const served = useServedApp();

it('moves between Settings tabs with the keyboard, as a vertical list beside the panel when wide and above it when narrow', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const tablist = settings.getByRole('tablist', { name: 'Settings' });
  expect(await tablist.getAttribute('aria-orientation')).toBe('vertical');
  const selected = async () => (await settings.getByRole('tab', { selected: true }).textContent())?.trim();
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
  await settings.getByRole('tab', { name: 'General' }).focus();
  await page.keyboard.press('ArrowDown');
  expect([await selected(), await focused()]).toEqual(['Model', 'Model']);
  await page.keyboard.press('End');
  expect([await selected(), await focused()]).toEqual(['Bridge', 'Bridge']);
  await page.keyboard.press('ArrowDown');
  expect(await selected()).toBe('General');
  await page.keyboard.press('ArrowUp');
  expect(await selected()).toBe('Bridge');
  await page.keyboard.press('Home');
  expect(await selected()).toBe('General');
  // The panel sits beside the list, not under it.
  const list = (await tablist.boundingBox())!;
  const panel = (await settings.getByRole('tabpanel').boundingBox())!;
  expect(panel.x).toBeGreaterThan(list.x + list.width - 1);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => tablist.getAttribute('aria-orientation')).toBe('horizontal');
  await page.keyboard.press('ArrowLeft');
  expect([await selected(), await focused()]).toEqual(['Bridge', 'Bridge']);
  // Above the panel now.
  const top = (await tablist.boundingBox())!;
  expect((await settings.getByRole('tabpanel').boundingBox())!.y).toBeGreaterThan(top.y + top.height - 1);
});
