import { existsSync } from 'node:fs';

// Debian's Chromium (apt-get install chromium). Playwright must never download a browser of its own.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}. Install it with "sudo apt-get install -y chromium" or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
  return path;
}
