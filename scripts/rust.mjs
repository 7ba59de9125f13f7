#!/usr/bin/env node
// Rust side of the build: `test` runs the SDK's host tests, `plugins` builds the example plugins to wasm32 and packs them.
import { existsSync } from 'node:fs';

const cmd = process.argv[2];
if (!existsSync('sdk-rust/Cargo.toml')) {
  console.log(`sdk-rust has no crates yet: nothing to ${cmd}.`);
  process.exit(0);
}
console.error('scripts/rust.mjs: sdk-rust exists but this script has not learned to build it yet.');
process.exit(1);
