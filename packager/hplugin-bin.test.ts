// The real bin: `npm run build:cli` output launched by bin/hplugin.js in a child process — exit codes and streams.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleManifest, LICENSE_TEXT, validWasm } from '../plugin-host/fixtures/packages/valid-parts';

const root = fileURLToPath(new URL('..', import.meta.url));
const hplugin = (...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/hplugin.js'), ...args], { encoding: 'utf8', cwd: root });
let dir: string;

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  dir = mkdtempSync(join(tmpdir(), 'hplugin-bin-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(exampleManifest()));
  writeFileSync(join(dir, 'plugin.wasm'), await validWasm());
  writeFileSync(join(dir, 'LICENSE'), LICENSE_TEXT);
}, 60_000);

describe('bin/hplugin.js', () => {
  it('packs and verifies with exit 0, then refuses a tampered package with exit 1 and an error line', () => {
    const out = join(dir, 'p.hplugin.zip');
    const pack = hplugin(
      'pack',
      '--manifest',
      join(dir, 'manifest.json'),
      '--wasm',
      join(dir, 'plugin.wasm'),
      '--license',
      join(dir, 'LICENSE'),
      '-o',
      out,
    );
    expect(pack.status, pack.stderr).toBe(0);
    const ok = hplugin('verify', out, '--json');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, id: 'example.word-count' });
    writeFileSync(join(dir, 'tampered.zip'), Buffer.concat([Buffer.from('junk'), readFileSync(out)]));
    const bad = hplugin('verify', join(dir, 'tampered.zip'));
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error E_PACKAGE_EXTRA_DATA: /);
  });

  it('exits 2 on a usage error and 0 on --help', () => {
    const usage = hplugin('verify');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^error E_USAGE: missing FILE/);
    const help = hplugin('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: hplugin <command>');
  });
});
