// Public face of plugin-host: package validation, registry and the Worker runtime for harness-wasm-v1 plugins.
export {};
