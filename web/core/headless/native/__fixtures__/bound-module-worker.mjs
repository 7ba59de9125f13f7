#!/usr/bin/env node
// Test fixture: an NDJSON worker (seed 000 §2) that a bindings.json entry binds to a module. Tools answer
// `WORKER:<name>`; hooks return their data unchanged. With `--fail` every call answers an error frame, so the test
// sees that the module's failure is the worker's and that nothing built in stands in.
import { createInterface } from 'node:readline';

const failing = process.argv.includes('--fail');
const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (failing) return send({ id: req.id, error: `bound worker says no (${req.event === 'tool' ? req.data.name : req.event})` });
  if (req.event === 'tool') return send({ id: req.id, data: { output: `WORKER:${req.data.name}` } });
  return send({ id: req.id, data: req.data });
}).on('close', () => process.exit(0));
