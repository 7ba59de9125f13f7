// Serves dist/app exactly like `npm start` does: Vite's preview server with the project's vite.config.ts (and so
// the production security headers), on 127.0.0.1 and a free port.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { preview, type PreviewServer } from 'vite';

export interface ServedBuild {
  url: string;
  port: number;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** `I_BUILT_APP` points the e2e specs at another build (parallel work in one tree builds into separate folders). */
export const BUILT_APP = resolve(ROOT, process.env.I_BUILT_APP ?? 'dist/app');

/** `outDir` serves a copy of the build instead (tests that change files, e.g. to publish a "new version"). */
export async function serveBuild(options: { port?: number; outDir?: string } = {}): Promise<ServedBuild> {
  const outDir = options.outDir ?? BUILT_APP;
  if (!existsSync(resolve(outDir, 'index.html'))) {
    throw new Error(`${outDir} has no index.html. Build the app first: npm run build`);
  }
  const chosen = options.port ?? (await freePort());
  const server: PreviewServer = await preview({
    root: resolve(ROOT, 'web'),
    configFile: resolve(ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { port: chosen, strictPort: true, host: '127.0.0.1', open: false },
  });
  const url = `http://127.0.0.1:${chosen}/`;
  return {
    url,
    port: chosen,
    close: () =>
      new Promise<void>((done) => {
        // Drop keep-alive sockets too, so "the server is gone" really means no response.
        (server.httpServer as { closeAllConnections?: () => void }).closeAllConnections?.();
        void server.close().then(done, done);
      }),
  };
}
