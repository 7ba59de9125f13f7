// i-bridge: the optional localhost process that runs native NDJSON workers for the browser.
const usage = `Usage: i-bridge [--port N] [--manifest FILE] [--allow-origin ORIGIN]... [--root DIR]... [--config-dir DIR]`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
console.error('error E_NOT_IMPLEMENTED: the bridge server is not implemented yet.');
process.exit(2);
