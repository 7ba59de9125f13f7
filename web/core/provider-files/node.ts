// Node-only face of web/core/provider-files (headless i): the registry kept in a file.
export { nodeRegistryStore } from './registry-node';
