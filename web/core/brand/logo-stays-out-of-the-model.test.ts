// Seed 000 §10: the logo is for people; it never enters a prompt, a tool schema or a session history. Only the
// CLI commands that print it (and the icon script, outside web/) may import web/core/brand: a module of the agent,
// the tools, the providers or the app that imported it could put it in front of the model.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const web = resolve(__dirname, '../..');
const ALLOWED = new Set([
  'core/headless/logo-command.ts',
  'core/headless/smoke-command.ts',
  'core/headless/logo-command.test.ts',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '__fixtures__' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(e.name) ? [path] : [];
  });
}

describe('the logo stays out of the model', () => {
  it('only the logo and smoke commands import web/core/brand', () => {
    const importers = sources(web)
      .map((file) => relative(web, file).split('\\').join('/'))
      .filter((file) => !file.startsWith('core/brand/'))
      .filter((file) => /from\s+['"][^'"]*\/brand(?:\/[a-z-]+)?['"]/.test(readFileSync(join(web, file), 'utf8')));
    expect(importers.filter((f) => !ALLOWED.has(f))).toEqual([]);
    expect(importers.sort()).toEqual([...ALLOWED].sort());
  });
});
