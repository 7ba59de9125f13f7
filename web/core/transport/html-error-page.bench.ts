// npm run bench: summarising an HTML error page from a provider answer (the body comes from whatever answers at
// base_url) on 1 MiB of each hostile shape vs 1 MiB of an ordinary page (target ≤ 3 each). The regexes this
// replaced were exponential on repeated comments and took 7 s on 64 KiB of "<".
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import { htmlPageText, isHtmlPage } from './html-error-page';

const MIB = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(MIB / unit.length)).slice(0, MIB);
const ORDINARY = `<html><body>${fill('<p class="c">Some <b>bold</b> text &amp; <a href="/l">a link</a></p>\n')}</body></html>`;
const HOSTILE: Record<string, string> = {
  'closed comments, then no page': `${fill('<!--a-->')}x`,
  'unclosed <!--': fill('<!--'),
  'a run of "<"': `<html>${fill('<')}`,
  '<title> repeated': `<html>${fill('<title>')}`,
  '<script> repeated': `<html>${fill('<script>')}`,
  '<style> and "</style" halves': `<html>${fill('<style></styl')}`,
};

const summarise = (text: string) => (isHtmlPage(text) ? htmlPageText(text) : text.slice(0, 2000));

it('summarises 1 MiB hostile HTML error pages in about the time of an ordinary one', async () => {
  for (const [name, page] of Object.entries(HOSTILE)) {
    await compare(
      `html error page: ${name} (1 MiB)`,
      { label: 'ordinary page', run: () => summarise(ORDINARY) },
      { label: name, run: () => summarise(page) },
      { target: 3 },
    );
  }
});
