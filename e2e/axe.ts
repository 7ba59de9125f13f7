// axe-core in the e2e suite: injects axe (the pinned devDependency) into the page and reports the serious and
// critical violations, one line each, so a spec can assert there are none and a failure says what and where.
// The app's CSP forbids inline scripts, so playwright's addScriptTag (an inline <script>) would be refused: the
// source is evaluated through the DevTools protocol instead, which the page's CSP does not govern.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let source: Promise<string> | undefined;

interface Found {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Serious and critical axe violations on the page as it is now (WCAG 2.x A and AA rules and axe's best practices).
 * `exclude`: selectors of parts another change owns, named by the caller with the reason; everything else counts.
 */
export async function seriousViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) {
    source ??= readFile(AXE_PATH, 'utf8');
    await page.evaluate(await source);
  }
  const found = await page.evaluate(async (exclude): Promise<Found[]> => {
    const axe = (window as unknown as { axe: AxeLike }).axe;
    const result = await axe.run(
      { include: [['html']], exclude: exclude.map((s) => [s]) },
      { resultTypes: ['violations'] },
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
      }));
  }, exclude);
  return found.map((v) => `${v.impact} ${v.id} (${v.help}) at ${v.nodes.join(' | ')}`);
}

interface AxeLike {
  run(
    context: { include: string[][]; exclude: string[][] },
    options: { resultTypes: string[] },
  ): Promise<{
    violations: {
      id: string;
      impact?: string | null;
      help: string;
      nodes: { target: string[]; failureSummary?: string }[];
    }[];
  }>;
}
