// Initial JavaScript of the app shell, gzip-compressed: the entry chunk named by dist/app/index.html plus every
// chunk it imports statically (transitively), and every chunk index.html preloads. Lazy chunks (the chat view, the
// settings dialog, the new-workspace and zip download dialogs with zip.js) do not count: the browser fetches them
// after the first screen.
// Budget: 100 KiB (issue 30). `npm run bench` builds dist/app first.
import { readFileSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { report } from '../../scripts/bench-kit';

const DIST = resolve(import.meta.dirname, '../..', process.env.I_BUILT_APP ?? 'dist/app');
const BUDGET_BYTES = 100 * 1024;

/** Static imports of a built ES module (`import ... from "x"`, `import "x"`, `export ... from "x"`), not `import()`. */
export function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g))
    out.push(m[1]!);
  return out;
}

function initialChunks(): string[] {
  const html = readFileSync(resolve(DIST, 'index.html'), 'utf8');
  const entries = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/^\//, ''));
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = posix.normalize(queue.shift()!);
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(readFileSync(resolve(DIST, file), 'utf8'))) {
      if (spec.startsWith('.') || spec.startsWith('/'))
        queue.push(spec.startsWith('/') ? spec.slice(1) : posix.join(dirname(file), spec));
    }
  }
  return [...seen];
}

it('keeps the initial JavaScript of the app shell within 100 KiB gzip', () => {
  const chunks = initialChunks();
  expect(chunks.length).toBeGreaterThan(0);
  const gzipBytes = chunks.reduce((sum, file) => sum + gzipSync(readFileSync(resolve(DIST, file))).length, 0);
  const rawBytes = chunks.reduce((sum, file) => sum + readFileSync(resolve(DIST, file)).length, 0);
  report(
    'app shell initial JS (gzip) vs 100 KiB budget',
    `${(gzipBytes / 1024).toFixed(1)} KiB gzip (${(rawBytes / 1024).toFixed(1)} KiB raw) in ${chunks.length} chunk(s): ${chunks.join(', ')}`,
    gzipBytes / BUDGET_BYTES,
    1,
  );
  expect(gzipBytes).toBeLessThanOrEqual(BUDGET_BYTES);
});
