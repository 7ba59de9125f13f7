#!/usr/bin/env node
// Test fixture: an NDJSON worker (seed 000 §2) that a bindings.json entry binds to a module. Tools answer
// `WORKER:<name>`; hooks return their data unchanged. With `--fail` every call answers an error frame, with
// `--fail-on TEXT` only a call whose data contains TEXT, so tests see that the module's failure is the worker's and
// that nothing built in stands in.
import { createInterface } from 'node:readline';

const failing = process.argv.includes('--fail');
const at = process.argv.indexOf('--fail-on');
const failOn = at > 0 ? process.argv[at + 1] : undefined;
const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (failing || (failOn && JSON.stringify(req.data).includes(failOn))) return send({ id: req.id, error: `bound worker says no (${req.event === 'tool' ? req.data.name : req.event})` });
  if (req.event === 'tool') return send({ id: req.id, data: { output: `WORKER:${req.data.name}` } });
  return send({ id: req.id, data: req.data });
}).on('close', () => process.exit(0));
