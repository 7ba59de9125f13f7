// Loaded before every e2e file (setupFiles): a failed test leaves full-page screenshots of every page still open
// in e2e/.artifacts/failed/ and prints their paths, so a failure seen only in CI can be looked at.
import { mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { openContexts } from './launch-browser';

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  const dir = resolve(import.meta.dirname, '../.artifacts/failed');
  const name = `${basename(ctx.task.file?.name ?? 'spec', '.spec.ts')}--${ctx.task.name}`
    .replace(/[^\w.-]+/g, '-')
    .slice(0, 120);
  mkdirSync(dir, { recursive: true });
  let n = 0;
  for (const context of openContexts) {
    for (const page of context.pages()) {
      const file = resolve(dir, `${name}${n++ ? `-${n}` : ''}.png`);
      try {
        await page.screenshot({ path: file, fullPage: true, timeout: 5000 });
        console.error(`screenshot of the failed test: ${file}`);
      } catch (error) {
        console.error(`no screenshot of the failed test (${(error as Error).message})`);
      }
    }
  }
});
