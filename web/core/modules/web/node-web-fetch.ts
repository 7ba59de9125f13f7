// The Node WebFetchBackend for headless `i` (seed 000 §9). It is a thin adapter over net/'s fetchPage (with its
// HTML to text and public-address checks), the same code the bridge serves as its web_fetch tool: ONE
// implementation of the rules that keep untrusted pages in check, instead of the two copies that drifted apart
// before. It lives in net/, below both: web/core and the bridge each import it, neither imports the other
// (issue 30; see net/CONTEXT.md).
// Why call it in-process rather than run web_fetch through the private i-bridge that headless `i` starts: that
// bridge is started only when the model config names native workers, needs the built dist/cli/i-bridge.js, and
// reads no settings (--no-settings), so every run with web_fetch alone would pay a child process, a new failure
// mode (E_BRIDGE_MISSING) and a new flag for allow_private. Errors arrive as net's NetError, which carries the same
// Symbol.for marker as HarnessError, so guard() keeps their codes. Node-only: exported from modules/node.ts.
import { fetchPage } from '../../../../net';
import type { ToolResult } from '../../contracts';
import type { WebFetchBackend } from './web-fetch-tool';

export interface NodeWebFetchOptions {
  /** Explicit trusted configuration only (web.json `fetch.allow_private`): reach private and loopback addresses. */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxOutputChars?: number;
  maxRequests?: number;
}

const PRIVATE_HINT = 'private access is configured (web.json "fetch": {"allow_private": true})';

export function createNodeWebFetch(options: NodeWebFetchOptions = {}): WebFetchBackend {
  return {
    name: 'node',
    async fetch(href: string, signal: AbortSignal): Promise<ToolResult> {
      const page = await fetchPage(href, {
        allowPrivate: false,
        ...options,
        userAgent: 'i web_fetch',
        privateHint: PRIVATE_HINT,
        signal,
      });
      // The page text goes back either way; a 4xx/5xx is flagged so the model does not take an error page as content.
      return page.status >= 400
        ? { output: page.output, error: true, code: 'E_WEB_HTTP_STATUS' }
        : { output: page.output };
    },
  };
}
