// Which adapter the app's transport uses for a model config: the built-in one of the protocol (undefined here), or
// — for a selector that is not built in, or an explicit `{"worker": ...}` binding — the paired bridge's provider
// worker. An `{"exec": [...]}` binding starts a program, which only headless i does: the app refuses it rather
// than silently running some other provider.
import type { ModelConfig } from '../config';
import { HarnessError } from '../contracts';
import { isBuiltinProtocol, type ProviderAdapter } from '../providers';
import type { BridgeClient } from './client';
import type { BridgeConnection } from './connection';
import { bridgeProviderAdapter } from './provider-adapter';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ConnectBridge = () => Promise<{ client: BridgeClient; connection: BridgeConnection } | undefined>;

export function appProviderAdapter(
  config: Pick<ModelConfig, 'protocol' | 'provider'>,
  connect: ConnectBridge | null,
  workspaceId?: string,
): ProviderAdapter | undefined {
  const binding = config.provider;
  if (binding && 'exec' in binding) {
    throw new HarnessError(
      'E_CONFIG_UNSUPPORTED',
      'At provider: {"exec": [...]} starts a program, which only headless i does. In the app a custom provider is the paired i-bridge\'s: put the worker in the bridge\'s desktop manifest ("provider") and remove "provider" from this config.',
      { path: 'provider' },
    );
  }
  if (!binding && isBuiltinProtocol(config.protocol)) return undefined;
  let connection: BridgeConnection | undefined;
  return bridgeProviderAdapter({
    protocol: config.protocol,
    client: async () => {
      const connected = connect ? await connect() : undefined;
      connection = connected?.connection;
      return connected?.client;
    },
    where: () =>
      connection?.root
        ? { workspace: connection.root, ...(workspaceId && UUID.test(workspaceId) ? { workspaceId } : {}) }
        : undefined,
    missingHint:
      'Start i-bridge with a desktop manifest that has "provider", pair it in Settings → Bridge, or pick a built-in protocol (openai, deepseek, anthropic, responses).',
  });
}
