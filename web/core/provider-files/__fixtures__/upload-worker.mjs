#!/usr/bin/env node
// Test fixture: a provider worker (seed 003 v1) for the made-up "my-upload" API that uses an extra operation: its
// first prepare asks the core to POST the raw bytes "hello upload" to {base_url}/upload (octet-stream); the next
// prepare, given operation_result and state, sends {upload: <id>} to {base_url}/generate.
import { createInterface } from 'node:readline';

const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);
const auth = { header: 'x-upload-key', prefix: '' };

function prepare(d) {
  if (!d.operation_result) {
    return { version: 1, operation: { method: 'POST', url: `${d.base_url}/upload`, headers: {}, auth, content_type: 'application/octet-stream', body_base64: Buffer.from('hello upload').toString('base64') }, state: { asked: 'upload' } };
  }
  return { version: 1, url: `${d.base_url}/generate`, body: { upload: d.operation_result.body.id, state: d.state }, headers: {}, auth };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  if (req.event === 'provider_prepare') return send({ id: req.id, data: prepare(req.data) });
  if (req.event === 'provider_parse') return send({ id: req.id, data: { version: 1, response: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: req.data.response.text } }] } } });
  return send({ id: req.id, data: req.data });
}).on('close', () => process.exit(0));
