import { expect, it } from 'vitest';

// Count Workers started, to see that tokenising happens off the main thread.
const started: string[] = [];
const RealWorker = globalThis.Worker;
globalThis.Worker = class extends RealWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    started.push(options?.name ?? '');
  }
};
const { highlight } = await import('./highlighter');

it('highlights in a Worker, with colours that follow the page between light and dark', async () => {
  const out = await highlight('const answer = 42; // the answer', 'typescript');
  expect(started).toEqual(['highlight']);
  const code = document.createElement('code');
  code.innerHTML = out!.html;
  document.body.append(code);
  const keyword = [...code.querySelectorAll('span')].find((s) => s.textContent === 'const')!;
  const root = document.documentElement;
  root.style.colorScheme = 'light';
  const light = getComputedStyle(keyword).color;
  root.style.colorScheme = 'dark';
  const dark = getComputedStyle(keyword).color;
  root.style.colorScheme = '';
  expect(light).not.toBe(getComputedStyle(code).color);
  expect(dark).not.toBe(light);
  code.remove();
  // A second request reuses the same Worker.
  expect((await highlight('let x = 1', 'js'))?.lang).toBe('javascript');
  expect(started).toEqual(['highlight']);
});
