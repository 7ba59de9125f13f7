// Wires the provider transport (web/core/transport `streamModel`) in as the loop's injected stream function.
import type { ProviderAdapter, Route } from '../providers';
import { streamModel, type TransportPorts } from '../transport';
import type { StreamFn } from './types';

export interface TransportStreamOptions extends TransportPorts {
  /** api_key_env: the credential's name; null sends no key (local servers). */
  apiKeyName: string | null;
  adapter?: ProviderAdapter;
  route?: Route;
}

export function transportStream(options: TransportStreamOptions): StreamFn {
  const { apiKeyName, adapter, route, ...ports } = options;
  return (call) =>
    streamModel({
      ...ports,
      input: call.input,
      apiKeyName,
      hooks: call.hooks,
      requestMeta: call.requestMeta,
      signal: call.signal,
      ...(adapter ? { adapter } : {}),
      ...(route ? { route } : {}),
    });
}
