// web_fetch and web_search limits (seed 000 §9): text body <= 1 MB, output <= 50000 characters, <= 5 HTTP requests
// (redirects included), 8 s for the whole call, no environment proxies, no JavaScript. The fetch limits are stated
// once, in net/limits.ts (the code the bridge and headless i fetch with); the app's tool description reads them here.
export { WEB_MAX_BODY_BYTES, WEB_MAX_OUTPUT_CHARS, WEB_MAX_REQUESTS, WEB_TIMEOUT_MS } from '../../../../net/limits';
export const WEB_MAX_URL_CHARS = 4096;
/** web_search: results per call at most, and characters kept per snippet. */
export const WEB_SEARCH_MAX_RESULTS = 20;
export const WEB_SEARCH_SNIPPET_MAX_CHARS = 500;
export const WEB_SEARCH_QUERY_MAX_CHARS = 500;
