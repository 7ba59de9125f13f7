import { describe, expect, it } from 'vitest';
import { htmlPageText, isHtmlPage } from './html-error-page';

describe('HTML error pages in provider answers', () => {
  it('recognises a page after whitespace, a byte order mark and comments, and nothing else', () => {
    expect(isHtmlPage('\uFEFF  <!-- a --> <!--b--><!DOCTYPE html><p>x')).toBe(true);
    expect(isHtmlPage('<HTML lang="en">')).toBe(true);
    expect(isHtmlPage('<body>')).toBe(true);
    expect(isHtmlPage('<htmlx>')).toBe(false);
    expect(isHtmlPage('<!-- never closed <html>')).toBe(false);
    expect(isHtmlPage('{"error": "<html>"}')).toBe(false);
    expect(isHtmlPage('<!doctypehtml>')).toBe(false);
  });

  it('summarises by title, else by text without scripts, styles, tags or entities', () => {
    expect(htmlPageText('<html><head><TITLE lang=en>502 Bad\n Gateway</title></head>')).toBe(
      'an HTML page titled "502 Bad Gateway"',
    );
    expect(
      htmlPageText(
        '<html><body><script>var x = "<b>";</script><STYLE>p{}</style><p>Sign in &amp; try   again</p>\n<p>Team&nbsp;SSO</p></body></html>',
      ),
    ).toBe('an HTML page saying "Sign in & try again Team SSO"');
    // An unclosed script block and a "<" without ">" are left as text, as the regexes did.
    expect(htmlPageText('<p>a</p><script>b')).toBe('an HTML page saying "a b"');
    expect(htmlPageText('<p>1 < 2')).toBe('an HTML page saying "1 < 2"');
    expect(htmlPageText('<html></html>')).toBe('an empty HTML page');
  });

  it('answers the shapes that made the old regexes backtrack (verdicts, within the default test timeout)', () => {
    // Exponential before: 40 comments would have taken hours.
    expect(isHtmlPage(`${'<!--a-->'.repeat(40)}x`)).toBe(false);
    expect(isHtmlPage(`${'<!--a-->'.repeat(100_000)}<html>`)).toBe(true);
    // Quadratic before: 7 s for 64 KiB of "<"; here 1 MiB of each shape.
    const mib = 1024 * 1024;
    expect(htmlPageText('<'.repeat(mib))).toBe(`an HTML page saying "${'<'.repeat(300)}"`);
    expect(htmlPageText('<title>'.repeat(mib / 7))).toBe('an empty HTML page');
    expect(htmlPageText(`${'<script>'.repeat(mib / 8)}tail`)).toBe('an HTML page saying "tail"');
  });
});
