// Headless `i`: the same core in Node. The agent-loop issue fills in the run; for now it answers --help honestly.
const usage = `Usage: i [-C DIR] [--config FILE] [--session-name NAME] [--yolo] [--json] -p PROMPT

Runs one agent turn in DIR (default: the current directory) against the model in the config file.
The headless runner is not implemented yet: only --help works.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
console.error('error E_NOT_IMPLEMENTED: the headless agent run is not implemented yet. See `i --help`.');
process.exit(2);
