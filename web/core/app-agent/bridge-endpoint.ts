// The paired i-bridge as the transport's proxy for providers whose route is 'bridge' (POST /v1/proxy). Reads the
// saved connection and its token (secrets store) on every request, so pairing or forgetting applies at once.
import { BRIDGE_TOKEN_SECRET, readBridgeConnection } from '../bridge-client';
import { getSecret } from '../settings';
import type { HarnessDb } from '../storage';
import type { BridgeEndpoint } from '../transport';

export async function pairedBridge(db: HarnessDb): Promise<BridgeEndpoint | null> {
  const connection = await readBridgeConnection(db);
  const token = connection && (await getSecret(db, BRIDGE_TOKEN_SECRET));
  return connection && token ? { url: connection.url, token } : null;
}
