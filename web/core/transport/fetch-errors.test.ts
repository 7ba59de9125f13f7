import { describe, expect, it } from 'vitest';
import { httpError } from './fetch-errors';

const origin = 'https://llm.example';

describe('httpError', () => {
  it('keeps a provider JSON message verbatim', () => {
    const e = httpError(400, JSON.stringify({ error: { message: 'Unknown parameter: <foo>' } }), origin);
    expect(e.toJSON()).toMatchObject({
      code: 'E_PROVIDER_HTTP',
      data: { status: 400, provider_message: 'Unknown parameter: <foo>' },
    });
  });

  it('says what an HTML error page is called instead of printing its markup', () => {
    const page = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>502 Bad Gateway\n</title><style>body{color:red}</style></head>
      <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;
    const e = httpError(502, page, origin);
    expect(e.message).toBe('The provider answered 502: an HTML page titled "502 Bad Gateway".');
    expect(e.message).not.toMatch(/[<>]/);
  });

  it('reads the text of an HTML page without a title, without scripts, styles or entities', () => {
    const page =
      '<html><body><script>var x = "<b>";</script><style>p{}</style><p>Sign in &amp; try   again</p>\n<p>Team&nbsp;SSO</p></body></html>';
    expect(httpError(401, page, origin).message).toContain('(401: an HTML page saying "Sign in & try again Team SSO")');
  });

  it('keeps other plain text as it is', () => {
    expect(httpError(500, '  upstream <timeout>  ', origin).message).toBe(
      'The provider answered 500: upstream <timeout>.',
    );
  });
});
