// Screenshots of the main screens in light and dark, English and Chinese, for people to look at
// (e2e/.artifacts/, git-ignored). Each shot also asserts the screen is in the expected language and theme.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  folderPickerSubstitute,
  launchBrowser,
  PICKED_FOLDER,
  serveBuild,
  type AppBrowser,
  type ServedBuild,
} from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');

const LOCALES = {
  en: {
    tag: 'en-US',
    welcome: 'Welcome to i',
    newWorkspace: 'New workspace',
    private: 'Private, inside this browser',
    name: 'Name',
    create: 'Create',
    newFile: 'New file',
    path: 'Path',
    content: 'Content',
    createFile: 'Create file',
    settings: 'Settings',
    close: 'Close',
    restore: 'Restore access',
    openFolder: 'Open a folder',
    chooseFolder: 'Choose folder and create',
  },
  zh: {
    tag: 'zh-CN',
    welcome: '欢迎使用 i',
    newWorkspace: '新建工作区',
    private: '私有，保存在此浏览器内',
    name: '名称',
    create: '创建',
    newFile: '新建文件',
    path: '路径',
    content: '内容',
    createFile: '创建文件',
    settings: '设置',
    close: '关闭',
    restore: '恢复访问',
    openFolder: '打开文件夹',
    chooseFolder: '选择文件夹并创建',
  },
} as const;

let server: ServedBuild;
beforeAll(async () => {
  server = await serveBuild();
  await mkdir(ARTIFACTS, { recursive: true });
});
afterAll(async () => server?.close());

async function shoot(page: Page, lang: string, screen: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background, `${screen} ${scheme}`).toBe(scheme === 'light' ? 'rgb(246, 247, 249)' : 'rgb(15, 17, 21)');
    await page.screenshot({ path: resolve(ARTIFACTS, `${screen}-${lang}-${scheme}.png`), animations: 'disabled' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const [lang, l] of Object.entries(LOCALES)) {
  describe(`main screens in ${lang}`, () => {
    let browser: AppBrowser;
    beforeAll(async () => {
      browser = await launchBrowser({ locale: l.tag, initScripts: [folderPickerSubstitute] });
    });
    afterAll(async () => browser?.dispose());

    it(`shows welcome, workspace, file, settings and restore-access screens in ${lang}`, async () => {
      const { page } = browser;
      await page.goto(server.url);
      await page.getByRole('heading', { level: 1, name: l.welcome }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : 'en');
      await shoot(page, lang, '1-welcome');

      await page.getByRole('button', { name: l.newWorkspace }).click();
      const dialog = page.getByRole('dialog', { name: l.newWorkspace });
      await dialog.waitFor(); // the dialog's code loads on the click (issue 30)
      await shoot(page, lang, '2-new-workspace');
      await dialog.getByLabel(l.private).check();
      await dialog.getByLabel(l.name).fill(lang === 'zh' ? '读书笔记' : 'Reading notes');
      await dialog.getByRole('button', { name: l.create, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      for (const [path, content] of [
        ['README.md', '# Notes\n\nA private workspace kept in this browser.\n'],
        ['chapters/01-intro.md', '# 第一章\n\n你好，世界。\n'],
        ['.hidden', 'not listed unless hidden files are shown'],
      ]) {
        await page.getByRole('button', { name: l.newFile }).click();
        const d = page.getByRole('dialog', { name: l.newFile });
        await d.getByLabel(l.path).fill(path!);
        await d.getByLabel(l.content).fill(content!);
        await d.getByRole('button', { name: l.createFile }).click();
        const preview = page.getByRole('dialog', { name: path });
        await preview.waitFor();
        if (path === 'README.md') await shoot(page, lang, '4-file-preview');
        await preview.getByRole('button', { name: l.close }).click();
      }
      expect(await page.getByRole('list').filter({ hasText: '.hidden' }).count()).toBe(0);
      await shoot(page, lang, '3-workspace');

      await page.getByRole('button', { name: l.settings }).click();
      await page.getByRole('dialog', { name: l.settings }).getByRole('progressbar').waitFor();
      await shoot(page, lang, '5-settings');
      await page.getByRole('dialog', { name: l.settings }).getByRole('button', { name: l.close }).click();

      await page.getByRole('button', { name: l.newWorkspace }).click();
      await page.getByRole('button', { name: l.chooseFolder }).click();
      await page.getByRole('heading', { level: 1, name: PICKED_FOLDER }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: l.restore }).waitFor();
      await shoot(page, lang, '6-restore-access');
    });
  });
}
