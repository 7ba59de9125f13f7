// The bridge's `web_fetch` tool (seed 000 §9). The fetch itself, with its HTML to text and public-address checks,
// is net/web-fetch.ts: ONE implementation below both the bridge and web/core, which headless `i` uses too
// (web/core/modules/web/node-web-fetch.ts). This file adds only what the bridge answers with: the tool's public
// description, its argument check, its User-Agent and the name of its own setting in a refusal.
import { fetchPage, type WebFetchOptions } from '../net';
import { BridgeError } from './errors';
import type { PublicTool, ToolResult } from './protocol';

/** Ends net's refusal "web_fetch only reaches public addresses unless …" with the bridge's own setting. */
const PRIVATE_HINT = 'web_fetch.allow_private is set in bridge.json';

export const webFetchTool: PublicTool = {
  name: 'web_fetch',
  description:
    'Fetch a public web page (http or https) and return its readable text. No JavaScript runs; output is capped at 50000 characters.',
  parameters: {
    type: 'object',
    properties: { url: { type: 'string', description: 'Absolute http(s) URL' } },
    required: ['url'],
    additionalProperties: false,
  },
};

/**
 * The bridge's `web_fetch` tool: the page text whatever its HTTP status, as the bridge has always answered.
 * Refusals and failures are net's NetError (E_WEB_*, E_ABORTED), which toErrorData keeps as they are.
 */
export async function webFetch(args: Record<string, unknown>, options: WebFetchOptions): Promise<ToolResult> {
  if (typeof args.url !== 'string')
    throw new BridgeError('E_TOOL_ARGUMENTS', 'web_fetch needs {"url": "https://..."}.');
  return {
    output: (await fetchPage(args.url, { userAgent: 'i-bridge web_fetch', privateHint: PRIVATE_HINT, ...options }))
      .output,
  };
}
