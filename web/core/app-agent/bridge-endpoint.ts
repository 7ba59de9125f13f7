// The paired i-bridge as the transport's proxy for providers whose route is 'bridge' (POST /v1/proxy). Reads the
// saved connection and its token (the internal secrets-store entry) on every request, so pairing or forgetting applies at once.
import { readBridgeConnection, readBridgeToken } from '../bridge-client';
import type { HarnessDb } from '../storage';
import type { BridgeEndpoint } from '../transport';

export async function pairedBridge(db: HarnessDb): Promise<BridgeEndpoint | null> {
  const connection = await readBridgeConnection(db);
  const token = connection && (await readBridgeToken(db));
  return connection && token ? { url: connection.url, token } : null;
}
