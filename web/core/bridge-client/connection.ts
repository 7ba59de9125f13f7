// Where the app keeps its bridge connection: the URL and the chosen root in a `bridge` record of the settings
// store (never exported: settings export reads only the global and workspace scopes), the token in the secrets
// store under the internal entry `i:bridge-token` (never exported, never shown again, never passed to plugins or
// workers). That name breaks the secret-name rule on purpose: no model config's api_key_env, web search secret or
// Keys-tab entry can name it, so an imported config cannot send the bridge token to its own base_url.
import { HarnessError } from '../contracts';
import type { HarnessDb } from '../storage';
import { createBridgeClient, normalizeBridgeUrl, type BridgeClient } from './client';

/** The internal secrets-store entry of the bridge token (outside the public name rule). */
export const BRIDGE_TOKEN_KEY = 'i:bridge-token';
/** Where older versions kept the token, as an ordinary secret; moved to BRIDGE_TOKEN_KEY on first read. */
export const LEGACY_BRIDGE_TOKEN_SECRET = 'I_BRIDGE_TOKEN';
const SCOPE = 'bridge';
const VERSION = 1;

export interface BridgeConnection {
  url: string;
  /** The bridge root that tool calls name as their workspace (one of GET /v1/status `roots`). */
  root: string;
  pairedAt: number;
}

/** The saved bridge token, moving a legacy `I_BRIDGE_TOKEN` entry to the internal one first. */
export async function readBridgeToken(db: HarnessDb): Promise<string | undefined> {
  const [current, legacy] = await Promise.all([
    db.get('secrets', BRIDGE_TOKEN_KEY),
    db.get('secrets', LEGACY_BRIDGE_TOKEN_SECRET),
  ]);
  if (legacy) {
    if (!current) await saveBridgeToken(db, legacy.value);
    await db.delete('secrets', LEGACY_BRIDGE_TOKEN_SECRET);
  }
  return current?.value ?? legacy?.value;
}

async function saveBridgeToken(db: HarnessDb, token: string): Promise<void> {
  await db.put('secrets', { name: BRIDGE_TOKEN_KEY, value: token, updatedAt: Date.now() });
}

export async function readBridgeConnection(db: HarnessDb): Promise<BridgeConnection | undefined> {
  const record = await db.get('settings', SCOPE);
  const v = record?.values;
  if (!v || typeof v.url !== 'string' || typeof v.root !== 'string' || typeof v.pairedAt !== 'number') return undefined;
  return { url: v.url, root: v.root, pairedAt: v.pairedAt };
}

/** The client of the saved connection with its token, or undefined when none is saved. */
export async function connectedBridge(
  db: HarnessDb,
  options: { fetch?: typeof fetch } = {},
): Promise<{ client: BridgeClient; connection: BridgeConnection } | undefined> {
  const connection = await readBridgeConnection(db);
  const token = connection && (await readBridgeToken(db));
  if (!connection || !token) return undefined;
  return { client: createBridgeClient({ url: connection.url, token, ...options }), connection };
}

/**
 * Pairs with the one-time code, checks the token against /v1/status, and only then saves URL, root and token:
 * a failed pairing leaves the previous connection as it was.
 */
export async function pairBridge(
  db: HarnessDb,
  rawUrl: string,
  code: string,
  options: { fetch?: typeof fetch } = {},
): Promise<{ client: BridgeClient; connection: BridgeConnection }> {
  const url = normalizeBridgeUrl(rawUrl);
  if (!/^[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}$/.test(code.trim())) {
    throw new HarnessError(
      'E_BRIDGE_CODE',
      'A pairing code looks like K7QM-X2RD: copy it from the line "Pairing code:" that i-bridge printed.',
    );
  }
  const token = await createBridgeClient({ url, ...options }).pair(code);
  const client = createBridgeClient({ url, token, ...options });
  const status = await client.status();
  const connection: BridgeConnection = { url, root: status.roots[0] ?? '', pairedAt: Date.now() };
  await saveBridgeToken(db, token);
  await db.delete('secrets', LEGACY_BRIDGE_TOKEN_SECRET);
  await db.put('settings', { scope: SCOPE, version: VERSION, values: { ...connection }, updatedAt: Date.now() });
  return { client, connection };
}

export async function chooseBridgeRoot(db: HarnessDb, root: string): Promise<void> {
  const connection = await readBridgeConnection(db);
  if (!connection) throw new HarnessError('E_BRIDGE_NOT_PAIRED', 'Pair with a bridge first.');
  await db.put('settings', { scope: SCOPE, version: VERSION, values: { ...connection, root }, updatedAt: Date.now() });
}

export async function forgetBridge(db: HarnessDb): Promise<void> {
  await db.delete('settings', SCOPE);
  await db.delete('secrets', BRIDGE_TOKEN_KEY);
  await db.delete('secrets', LEGACY_BRIDGE_TOKEN_SECRET);
}
