// net/: Node-only code that both i-bridge and headless `i` need to reach the network safely (see CONTEXT.md).
// Its public face: the bridge and web/core import from here, never from a file inside.
export { NetError, type NetErrorData } from './errors';
export { fetchPage, type FetchedPage, type WebFetchOptions } from './web-fetch';
export { WEB_MAX_BODY_BYTES, WEB_MAX_OUTPUT_CHARS, WEB_MAX_REQUESTS, WEB_TIMEOUT_MS } from './limits';
export { guardedLookup, isPublicAddress } from './public-address';
export { htmlToText, htmlToTextYielding } from './html-to-text';
export { boundedText, escapeControls, quoteUntrusted } from './untrusted-text';
