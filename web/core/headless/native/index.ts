// Public face of headless native workers: the model config's `plugins` manifest and `provider` binding through a
// private child i-bridge.
export { startNativeWorkers, type NativeWorkerOptions, type NativeWorkers } from './native-workers';
export { buildNativeManifest, type NativeManifest } from './native-manifest';
export {
  findBridgeScript,
  privateBridgeArgs,
  startPrivateBridge,
  type PrivateBridge,
  type PrivateBridgeOptions,
} from './private-bridge';
