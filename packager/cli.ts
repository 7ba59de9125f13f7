// hplugin: pack, verify and run harness-wasm-v1 plugin packages. The packages issue fills in pack/verify.
const usage = `Usage: hplugin <command> [options]

Commands:
  pack --manifest FILE --wasm FILE --license FILE -o OUT   build a .hplugin.zip
  verify FILE [--json]                                      check a package
  run PACKAGE --tool NAME --args JSON --workspace DIR       run one tool invocation in Node`;

const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(args.length === 0 ? 2 : 0);
}
console.error(`error E_NOT_IMPLEMENTED: hplugin ${args[0]} is not implemented yet.`);
process.exit(2);
