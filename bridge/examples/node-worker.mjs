#!/usr/bin/env node
// Example NDJSON worker in Node (seed 000 §2). One request per line on stdin, one answer per line on stdout,
// flushed; diagnostics go to stderr. It exits when stdin closes, as every worker must: if the bridge itself is
// SIGKILLed, stdin EOF is the only signal a worker gets (a later bridge start kills leftover process groups too,
// but only as a best-effort guard).
// Serves the `echo` and `workspace_info` tools, passes every hook event through unchanged, and implements a toy
// provider (seed 003 v1) that speaks the OpenAI chat wire format.
import { createInterface } from 'node:readline';

const answer = (id, data) => process.stdout.write(`${JSON.stringify({ id, data })}\n`);
const fail = (id, message) => process.stdout.write(`${JSON.stringify({ id, error: message })}\n`);

function tool(req) {
  const { name, arguments: args } = req.data;
  if (name === 'echo') return { output: String(args.text ?? '') };
  if (name === 'workspace_info') {
    return {
      output: JSON.stringify({
        workspace: req.workspace,
        workspace_id: req.workspace_id ?? null,
        data_dir: process.env.I_DATA_DIR,
      }),
    };
  }
  throw new Error(`unknown tool ${name}`);
}

function providerPrepare(data) {
  if (data.version !== 1) throw new Error('only provider contract v1 is supported');
  return {
    version: 1,
    url: `${data.base_url}/chat/completions`,
    body: { model: data.model, messages: data.history, max_tokens: data.max_tokens },
    headers: {},
    auth: { header: 'authorization', prefix: 'Bearer ' },
  };
}

function providerParse(data) {
  if (data.version !== 1) throw new Error('only provider contract v1 is supported');
  return { version: 1, response: data.response };
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return; // not ours to answer without an id; the bridge will time the call out
  }
  try {
    if (req.event === 'tool') return answer(req.id, tool(req));
    if (req.event === 'provider_prepare') return answer(req.id, providerPrepare(req.data));
    if (req.event === 'provider_parse') return answer(req.id, providerParse(req.data));
    return answer(req.id, req.data); // hooks return the complete data; unchanged when not handled
  } catch (error) {
    return fail(req.id, error.message);
  }
});
rl.on('close', () => process.exit(0)); // stdin EOF: the bridge is gone
