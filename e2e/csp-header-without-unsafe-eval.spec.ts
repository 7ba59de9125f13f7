import { expect, it } from 'vitest';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const app = useServedApp({
  // Records every CSP violation the page sees (the app itself must cause none).
  initScripts: [
    `window.__cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
  ],
});

function checkPolicy(policy: string | null, what: string) {
  expect(policy, `${what} has a Content-Security-Policy header`).toBeTruthy();
  const directives = Object.fromEntries(
    policy!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(policy, what).not.toMatch(/'unsafe-eval'/);
  expect(directives['script-src'], what).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(directives['style-src'], what).toEqual(["'self'"]);
  expect(directives['object-src'], what).toEqual(["'none'"]);
}

it('sends a strict CSP header (no unsafe-eval) on the document, the service worker and JavaScript', async () => {
  const doc = await fetch(app.server.url);
  checkPolicy(doc.headers.get('content-security-policy'), 'the document');
  const html = await doc.text();
  expect(html, 'no inline scripts in the built page').not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(html, 'no inline styles in the built page').not.toMatch(/<style|style="/);

  const sw = await fetch(new URL('sw.js', app.server.url));
  expect(sw.status).toBe(200);
  checkPolicy(sw.headers.get('content-security-policy'), 'the service worker');

  const entry = html.match(/<script type="module" crossorigin src="([^"]+)"/)?.[1];
  expect(entry, 'the entry script').toBeTruthy();
  const js = await fetch(new URL(entry!, app.server.url));
  expect(js.headers.get('content-type')).toMatch(/javascript/);
  checkPolicy(js.headers.get('content-security-policy'), 'a JavaScript module');
});

it('runs without a single CSP violation through the main screens', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  await createPrivateWorkspace(page, 'CSP check');
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  for (const tab of ['Workspaces', 'Import / Export', 'General'])
    await settings.getByRole('tab', { name: tab }).click();
  await page.reload();
  await page.getByRole('navigation').waitFor();
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
});
