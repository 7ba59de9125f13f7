// Wires the provider transport (web/core/transport `streamModel`) in as the loop's injected stream function.
import type { ProviderAdapter, Route, StreamEvent } from '../providers';
import { streamModel, type TransportPorts } from './stream-model';
import type { ModelCall, StreamFn } from '../contracts';

export interface TransportStreamOptions extends TransportPorts {
  /** api_key_env: the credential's name; null sends no key (local servers). */
  apiKeyName: string | null;
  adapter?: ProviderAdapter;
  route?: Route;
}

export function transportStream(options: TransportStreamOptions): StreamFn {
  return (call) => streamCall(options, call, options.adapter);
}

/** One model call through the transport, with `adapter` (absent: the built-in one for the call's protocol). */
export function streamCall(
  options: TransportStreamOptions,
  call: ModelCall,
  adapter: ProviderAdapter | undefined,
): AsyncIterable<StreamEvent> {
  const { apiKeyName, adapter: _configured, route, ...ports } = options;
  return streamModel({
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
