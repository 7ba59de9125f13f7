import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../contracts/tools';
import { validateWebConfig } from './web-config';
import { webSearchTool } from './web-search-tool';

let server: Server;
let base = '';
const seen: Array<{ method: string; url: string; auth: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers['x-token'] as string | undefined, body });
      if (req.url?.startsWith('/moved')) {
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
        res.end();
        return;
      }
      if (req.url?.startsWith('/fail')) {
        res.writeHead(401);
        res.end('{}');
        return;
      }
      const query =
        req.method === 'GET'
          ? new URL(req.url!, 'http://x').searchParams.get('q')
          : (JSON.parse(body) as { query: string }).query;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: {
            hits: [
              { name: `About ${query}`, link: 'https://example.com/a', text: `echo ${req.headers['x-token'] ?? ''}` },
              { name: 'Second', link: 'https://example.com/b', text: 'more  text' },
              { name: 'No link' },
            ],
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ctx = { signal: new AbortController().signal } as ToolContext;
const results = { items: 'data.hits', title: 'name', url: 'link', snippet: 'text' };
const secrets = async (name: string) => (name === 'SEARCH_KEY' ? 's3cr3t-value' : undefined);

describe('web_search', () => {
  it('maps a GET query and the results, with the credential as a header that never reaches the output', async () => {
    const config = validateWebConfig({
      search: {
        url: `http://localhost:${base.split(':').pop()}/search`,
        params: { q: '{query}', n: '{limit}', lang: 'en' },
        auth: { header: 'X-Token', secret: 'SEARCH_KEY' },
        results,
        max_results: 5,
      },
    }).search!;
    const tool = webSearchTool({ config, getSecret: secrets });
    const result = await tool.execute({ query: 'rust wasm', limit: 2 }, ctx);
    expect(result.output).toBe(
      'Search results for "rust wasm" (untrusted data):\n1. About rust wasm\n   https://example.com/a\n   echo [secret]\n2. Second\n   https://example.com/b\n   more text',
    );
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/search?q=rust+wasm&n=2&lang=en', auth: 's3cr3t-value' });
    expect(JSON.stringify(tool.schema)).not.toContain('s3cr3t');
  });

  it('posts a JSON body built from the mapping', async () => {
    const config = validateWebConfig({
      search: {
        url: `http://localhost:${base.split(':').pop()}/api`,
        method: 'POST',
        params: { query: '{query}', count: '{limit}', safe: true },
        results,
      },
    }).search!;
    const result = await webSearchTool({ config, getSecret: secrets }).execute({ query: 'q1' }, ctx);
    expect(result.output).toContain('1. About q1');
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ query: 'q1', count: 5, safe: true });
  });

  it('fails clearly on a missing secret, a redirect, an HTTP error and a wrong result path', async () => {
    const port = base.split(':').pop();
    const make = (path: string, extra: Record<string, unknown> = {}) =>
      webSearchTool({
        config: validateWebConfig({
          search: { url: `http://localhost:${port}${path}`, params: { q: '{query}' }, results, ...extra },
        }).search!,
        getSecret: secrets,
      });
    expect((await make('/s', { auth: { header: 'X-Token', secret: 'OTHER' } }).execute({ query: 'x' }, ctx)).code).toBe(
      'E_WEB_SECRET_MISSING',
    );
    expect((await make('/moved').execute({ query: 'x' }, ctx)).code).toBe('E_WEB_SEARCH_FAILED');
    expect((await make('/fail').execute({ query: 'x' }, ctx)).code).toBe('E_WEB_SEARCH_STATUS');
    expect((await make('/s', { results: { ...results, items: 'nope' } }).execute({ query: 'x' }, ctx)).code).toBe(
      'E_WEB_SEARCH_RESPONSE',
    );
    expect((await make('/s').execute({ query: 'x' }, ctx)).error).toBeUndefined();
    expect((await make('/s').execute({ query: 'q'.repeat(501) }, ctx)).code).toBe('E_TOOL_ARGUMENTS');
    expect(
      (
        await webSearchTool({
          config: validateWebConfig({
            search: { url: `http://localhost:${port}/s`, params: { q: '{query}' }, results },
          }).search!,
          getSecret: secrets,
          maxBodyBytes: 50,
        }).execute({ query: 'x' }, ctx)
      ).code,
    ).toBe('E_WEB_SEARCH_TOO_LARGE');
  });

  it('validates web.json strictly, with the path in the message', () => {
    const ok = { url: 'https://api.example.com/s', params: { q: '{query}' }, results };
    expect(validateWebConfig({})).toEqual({ fetch: { allow_private: false } });
    expect(validateWebConfig({ fetch: { allow_private: true } }).fetch.allow_private).toBe(true);
    const bad: Array<[unknown, string]> = [
      [{ search: { ...ok, url: 'http://api.example.com/s' } }, 'At web.json.search.url'],
      [{ search: { ...ok, url: 'https://u:p@api.example.com/s' } }, 'At web.json.search.url'],
      [{ search: { ...ok, params: { q: 'static' } } }, 'At web.json.search.params'],
      [{ search: { ...ok, method: 'PUT' } }, 'At web.json.search.method'],
      [{ search: { ...ok, headers: { Host: 'x' } } }, 'At web.json.search.headers.Host'],
      [{ search: { ...ok, max_results: 50 } }, 'At web.json.search.max_results'],
      [{ search: { ...ok, api_key: 'inline' } }, 'At web.json.search.api_key'],
      [{ fetch: { allow_private: 'yes' } }, 'At web.json.fetch.allow_private'],
    ];
    for (const [config, at] of bad) expect(() => validateWebConfig(config), at).toThrow(at);
  });
});
