// tool_protocol "json" in headless `i`, in-process through runCli against the scripted model server, for the four
// built-in protocol selectors: no request carries a `tools` field, a JSON tool_call of `read` runs, the next request
// carries the file's content in the jingwei_tool_result envelope marked untrusted, a malformed reply is answered with
// the protocol error and the corrected reply runs, and the final answer is printed.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { headlessProject } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROTOCOLS: WireProtocol[] = ['openai', 'deepseek', 'anthropic', 'responses'];
/** The envelope as it appears inside a JSON request body (its text is a JSON string there). */
const inBody = (text: string) => JSON.stringify(text).slice(1, -1);

describe.each(PROTOCOLS)('tool_protocol "json" over %s (headless i)', (protocol) => {
  it('runs a JSON read, sends its result in the envelope, corrects a malformed reply and prints the answer', async () => {
    server = await startModelServer({
      script: [
        { text: 'Let me look.\n```json\n{"type": "tool_call", "name": "read", "arguments": {"path": "a.txt"}}\n```' },
        { text: 'The file says the answer is 42.' },
        { text: '{"type": "final", "content": "a.txt holds the answer: 42"}' },
      ],
    });
    const project = headlessProject(
      {
        protocol,
        base_url: server.baseUrl(protocol),
        model: 'm',
        max_tokens: 256,
        budget: { context_window: 1_000_000 },
        tool_protocol: 'json',
      },
      { 'a.txt': 'the answer is 42\n' },
    );
    const { code, stdout, stderr } = await project.run(['-p', 'What does a.txt say?']);
    expect(server.failures).toEqual([]);
    expect(code).toBe(0);
    expect(stdout).toContain('a.txt holds the answer: 42');
    expect(server.requests).toHaveLength(3);
    for (const r of server.requests) {
      expect(r.body).not.toHaveProperty('tools');
      expect(r.rawBody).toContain('Tool protocol: JSON actions');
    }
    const second = server.requests[1]!.rawBody;
    expect(second).toContain(inBody('{"jingwei_tool_result":{"name":"read","ok":true,"output":"'));
    expect(second).toContain('the answer is 42');
    expect(second).toContain(inBody('"untrusted_tool_data":true}'));
    const third = server.requests[2]!.rawBody;
    expect(third).toContain(
      inBody(
        '{"jingwei_tool_result":{"name":"json_action_protocol","ok":false,"output":"Error E_JSON_ACTION_NO_JSON: ',
      ),
    );
    expect(stderr).toContain('E_JSON_ACTION_NO_JSON');
  });
});
