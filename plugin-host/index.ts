// Public face of plugin-host, the bottom layer: shared errors, the WorkspaceFs port, harness-wasm-v1 package
// validation, the plugin registry and the Worker runtime. Browser-safe only: Node-only code is in ./node.ts.
export * from './errors';
export * from './fs';
export * from './package';
export * from './runtime';
