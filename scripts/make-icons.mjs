#!/usr/bin/env node
// Writes every file drawn from the brand glyph (web/core/brand/glyph.ts): public/logo.svg, public/favicon.svg and
// the PNG app icons in public/icons, with no image library: `node scripts/make-icons.mjs`. `--check` writes
// nothing and exits 1 naming each committed file that differs from what the glyph gives (the unit test
// web/core/brand/brand-files.test.ts makes the same comparison in CI).
import { mkdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

// The glyph and its renderers are TypeScript; bundle them once into a temporary module and import it.
const tmp = mkdtempSync(join(tmpdir(), 'i-brand-'));
let brand;
try {
  const outfile = join(tmp, 'brand.mjs');
  await build({
    entryPoints: [join(repo, 'web/core/brand/node.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  brand = await import(pathToFileURL(outfile).href);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const differing = [];
for (const { path, bytes } of brand.brandFiles()) {
  const file = join(repo, path);
  if (check) {
    let current = null;
    try {
      current = readFileSync(file);
    } catch {
      // missing: reported below
    }
    if (!current || !current.equals(Buffer.from(bytes))) differing.push(path);
    continue;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  console.log(`wrote ${path} (${bytes.length} bytes)`);
}
if (differing.length > 0) {
  console.error(
    `These files differ from the brand glyph: ${differing.join(', ')}. Run \`node scripts/make-icons.mjs\` and commit them.`,
  );
  process.exit(1);
}
if (check) console.log('brand files match the glyph');
