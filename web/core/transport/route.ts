// Where the bytes go: straight to the provider, or through the bridge's `POST /v1/proxy {url, method, headers,
// body}` when the provider does not allow browser CORS. The body is forwarded as the exact prepared JSON text.
import { HarnessError } from '../contracts';
import type { Route } from '../providers';

export interface BridgeEndpoint {
  /** The bridge's base URL, e.g. `http://127.0.0.1:8765`. */
  url: string;
  /** Bearer token obtained by pairing. */
  token: string;
}

export interface OutgoingRequest {
  url: string;
  init: RequestInit;
}

export function directRequest(
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
  signal: AbortSignal | undefined,
): OutgoingRequest {
  return {
    url,
    init: { method: 'POST', headers, body: body as BodyInit, redirect: 'error', ...(signal ? { signal } : {}) },
  };
}

export function bridgeRequest(
  bridge: BridgeEndpoint | null,
  url: string,
  headers: Record<string, string>,
  bodyText: string,
  signal: AbortSignal | undefined,
): OutgoingRequest {
  if (!bridge) {
    throw new HarnessError(
      'E_BRIDGE_UNAVAILABLE',
      'This provider is set to go through the bridge, but no bridge is paired. Start i-bridge and pair it, or switch the route to direct.',
    );
  }
  return {
    url: bridge.url.replace(/\/+$/, '') + '/v1/proxy',
    init: {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, method: 'POST', headers, body: bodyText }),
      redirect: 'error',
      ...(signal ? { signal } : {}),
    },
  };
}

export type { Route };
