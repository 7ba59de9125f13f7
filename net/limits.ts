// web_fetch's limits (seed 000 §9), the defaults of net/web-fetch.ts for the bridge and headless `i` alike; tests
// pass smaller values through WebFetchOptions, the defaults never change silently.
// web/core/modules/web/limits.ts re-exports them for the app's own tool description (this file imports nothing, so
// the browser bundle may take it without the Node fetch code).

/** Bytes of a page's body read at the most; the rest is cut and the page marked truncated. */
export const WEB_MAX_BODY_BYTES = 1024 * 1024;
/** Characters of text returned at the most (`URL:` and `Status:` lines included). */
export const WEB_MAX_OUTPUT_CHARS = 50_000;
/** HTTP requests per fetch, redirects included. */
export const WEB_MAX_REQUESTS = 5;
/** The whole fetch, every redirect included. */
export const WEB_TIMEOUT_MS = 8_000;
