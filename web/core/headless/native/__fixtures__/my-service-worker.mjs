#!/usr/bin/env node
// Test fixture: an NDJSON worker (seed 000 §2) that is both a provider for the made-up "my-service" wire API
// (seed 003 v1), a tool ("shout") and a before_request hook that adds `hooked: true` to the body. `--crash-on-prepare LOG` appends a line to LOG and exits in the middle of
// provider_prepare.
// my-service: POST {base_url}/generate {model, messages, tools} → {reply: {text, calls: [{id, name, args}]}, done}.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const at = process.argv.indexOf('--crash-on-prepare');
const crashLog = at > 0 ? process.argv[at + 1] : undefined;
const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);

function prepare(d) {
  if (crashLog) {
    appendFileSync(crashLog, 'prepare\n');
    process.exit(3);
  }
  return {
    version: 1,
    url: `${d.base_url}/generate`,
    body: { model: d.model, messages: d.history, tools: [...d.tools, ...d.plugin_tools].map((t) => t.name), max: d.max_tokens },
    headers: { 'x-my-service': d.protocol },
    auth: { header: 'authorization', prefix: 'Token ' },
  };
}

function parse(d) {
  const r = d.response;
  const calls = r.reply.calls ?? [];
  const message = { role: 'assistant', content: r.reply.text ?? null };
  if (calls.length) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  return { version: 1, response: { choices: [{ finish_reason: r.done === 'tool' ? 'tool_calls' : 'stop', message }], usage: { input_tokens: 3, output_tokens: 2 } } };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const req = JSON.parse(line);
  try {
    if (req.event === 'provider_prepare') return send({ id: req.id, data: prepare(req.data) });
    if (req.event === 'provider_parse') return send({ id: req.id, data: parse(req.data) });
    if (req.event === 'tool') return send({ id: req.id, data: { output: `SHOUT:${String(req.data.arguments.text).toUpperCase()}` } });
    // Hooks return the complete data; before_request marks the body so the test sees the hook ran.
    if (req.event === 'before_request') return send({ id: req.id, data: { ...req.data, body: { ...req.data.body, hooked: true } } });
    return send({ id: req.id, data: req.data });
  } catch (error) {
    return send({ id: req.id, error: String(error) });
  }
}).on('close', () => process.exit(0));
