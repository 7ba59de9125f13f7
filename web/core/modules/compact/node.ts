// Node-only face of the compaction module: reads `<config_dir>/compact.json` and its prompt file.
export { loadCompactConfig } from './node-compact-config';
