#!/usr/bin/env node
// `npm start`: build the PWA, then serve dist/app on 127.0.0.1 with the production security headers.
import { build, preview } from 'vite';

const port = Number(process.env.PORT || 4173);
await build({ logLevel: 'warn' });
const server = await preview({ preview: { port, strictPort: false, host: '127.0.0.1', open: false } });
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${port}/`;
console.log(
  `\n  i is running at ${url}\n  Open it in Chrome (or Chromium) and install it from the address bar. Ctrl+C stops the server.\n`,
);
