// The set-up the Chromium benches share: page code bundled with esbuild (no Vite), served from 127.0.0.1 (a secure
// context, so OPFS is there) next to any other files the bench needs, and Debian's Chromium opened on it.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type AppBrowser } from './launch-browser';
import { freePort } from './serve-build';

export interface BenchFile {
  type: string;
  body: string | Uint8Array;
}

/** One TypeScript entry (path relative to e2e/) as a browser ES module. */
export async function bundlePage(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [resolve(import.meta.dirname, '..', entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

/**
 * Serves `/` (an HTML page loading `/page.js`), `/page.js` (the bundled `entry`) and `extra` files for the file's
 * benches, with one browser; read `url` and `browser` inside tests.
 */
export function useBenchPage(
  title: string,
  entry: string,
  extra: () => Promise<Record<string, BenchFile>> = async () => ({}),
) {
  const state: { url: string; browser?: AppBrowser; close?: () => Promise<void> } = { url: '' };
  beforeAll(async () => {
    const files: Record<string, BenchFile> = {
      '/': {
        type: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="/page.js"></script>`,
      },
      '/page.js': { type: 'text/javascript', body: await bundlePage(entry) },
      ...(await extra()),
    };
    const server = createServer((request, response) => {
      const file = files[request.url ?? '/'] ?? files['/']!;
      response.writeHead(200, { 'content-type': file.type });
      response.end(file.body);
    });
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    state.url = `http://127.0.0.1:${port}/`;
    state.close = () => new Promise((done) => server.close(() => done()));
    state.browser = await launchBrowser();
  });
  afterAll(async () => {
    await state.browser?.dispose();
    await state.close?.();
  });
  return {
    get url() {
      return state.url;
    },
    get browser(): AppBrowser {
      if (!state.browser) throw new Error('useBenchPage: read browser inside a test');
      return state.browser;
    },
  };
}
