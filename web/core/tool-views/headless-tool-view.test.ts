// `tool_view` in the model config file of headless `i`, in-process through runCli against the scripted model
// server: the request carries only the view's schemas; a view naming a tool that is not there stops the run
// before any request, with the code and the config path.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { parseModelConfig } from '../config';
import { headlessProject } from '../headless/cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(toolView: unknown) {
  server = await startModelServer({ script: [{ text: 'done' }] });
  const project = headlessProject({
    budget: { context_window: 1_000_000 },
    base_url: server.baseUrl('openai'),
    model: 'm',
    max_tokens: 256,
    ...(toolView !== undefined ? { tool_view: toolView } : {}),
  });
  const { code, stdout, stderr } = await project.run(['-p', 'go']);
  const sent = server.requests.map((r) =>
    ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name),
  );
  return { code, stdout, stderr, sent };
}

describe('tool_view in the model config (headless i)', () => {
  it('sends only the schemas of the configured names and groups', async () => {
    const all = await run(undefined);
    expect(all.code).toBe(0);
    expect(all.sent[0]).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'glob', 'search', 'view_image']));
    const files = await run({ groups: ['files'], names: ['glob'] });
    expect(files.code).toBe(0);
    expect(files.stdout).toContain('done');
    expect([...files.sent[0]!].sort()).toEqual(['edit', 'glob', 'read', 'read_result', 'view_image', 'write']);
  });

  it('stops before any request when the view names a tool that is not there', async () => {
    const r = await run({ names: ['bash'] });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_TOOL_VIEW_UNKNOWN_NAME');
    expect(r.sent).toEqual([]);
  });

  it('refuses a malformed tool_view when the config is read, naming the path', async () => {
    const r = await run({ groups: ['files', 'files'] });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('E_TOOL_VIEW_DUPLICATE');
    expect(r.stderr).toContain('tool_view.groups[1]');
    expect(r.sent).toEqual([]);
    expect(() =>
      parseModelConfig({ base_url: 'http://127.0.0.1:1/v1', model: 'm', tool_view: { names: ['read'], tools: [] } }),
    ).toThrow(expect.objectContaining({ code: 'E_TOOL_VIEW_CONFIG_INVALID' }));
    expect(
      parseModelConfig({ base_url: 'http://127.0.0.1:1/v1', model: 'm', tool_view: { groups: ['mcp:gh'] } }).tool_view,
    ).toEqual({ names: [], groups: ['mcp:gh'] });
  });
});
