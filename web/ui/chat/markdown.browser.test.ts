import { expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

it('hostile model text renders as escaped plain text instead of freezing or breaking the chat', () => {
  const nested = `${'> '.repeat(2000)}<img src=x onerror=alert(1)>`;
  const html = renderMarkdown(nested);
  expect(html.startsWith('<p class="md-plain">')).toBe(true);
  expect(html).not.toContain('<img');
  // marked takes ~5 s on this input (quadratic emphasis); it never reaches marked.
  expect(renderMarkdown('_a'.repeat(20000))).toBe(`<p class="md-plain">${'_a'.repeat(20000)}</p>`);
});

it('ordinary markdown still renders as markdown, sanitised', () => {
  const html = renderMarkdown('**bold** and [link](https://example.com)\n\n<script>alert(1)</script>');
  expect(html).toContain('<strong>bold</strong>');
  expect(html).toContain('rel="noopener noreferrer"');
  expect(html).not.toContain('<script');
});

it('renders a block from its lexed tokens, sanitised like text', async () => {
  const { splitMarkdownBlocks } = await import('./markdown-blocks');
  const { renderMarkdownTokens } = await import('./markdown');
  const blocks = splitMarkdownBlocks(
    'See [the docs][d] <img src=x onerror=alert(1)>\n\n[d]: https://example.com/docs\n',
  );
  const first = blocks[0]!;
  expect(first.kind === 'md' && first.tokens !== undefined).toBe(true);
  const html = renderMarkdownTokens(first.kind === 'md' ? first.tokens! : [], first.raw);
  expect(html).toContain('<a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">the docs</a>');
  expect(html).not.toContain('onerror');
});
