// Public face of web/core/bridge-client: the i-bridge HTTP client, the saved connection (token in the secrets
// store), bridge tools for the agent, the bridge as web_fetch backend, and the bridge's hooks.
export {
  createBridgeClient,
  normalizeBridgeUrl,
  type BridgeCallResult,
  type BridgeClient,
  type BridgeClientOptions,
  type BridgeManifest,
  type BridgeStatus,
  type BridgeTool,
  type BridgeWorkspace,
} from './client';
export {
  BRIDGE_TOKEN_KEY,
  LEGACY_BRIDGE_TOKEN_SECRET,
  readBridgeToken,
  chooseBridgeRoot,
  connectedBridge,
  forgetBridge,
  pairBridge,
  readBridgeConnection,
  type BridgeConnection,
} from './connection';
export {
  bridgeHooks,
  bridgeToolSource,
  bridgeWebFetchBackend,
  type BridgeWebFetchBackend,
  type ToolSource,
} from './bridge-tools';
export {
  bridgeProviderAdapter,
  checkParsedAnswer,
  checkPreparedAnswer,
  type BridgeProviderOptions,
} from './provider-adapter';
export { appProviderAdapter, type ConnectBridge } from './app-provider';
