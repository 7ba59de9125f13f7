// Headless `i` as real processes (issue 15): a long tool result of one run is a reference that a LATER run of the
// same --session-name can still read with read_result (the session folder's content/ store), while the log keeps
// the whole text in `_full_output`; another session's run is refused with E_CONTENT_SCOPE.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { useBuiltCli } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cli = useBuiltCli('refs');
const runI = (args: string[], cwd: string) => cli(args, { cwd });

const BIG = Array.from({ length: 2000 }, (_, i) => `row ${i}: 数据`).join('\n');
/** The text of the last tool message the model was sent. */
const lastToolText = (body: Record<string, unknown> | undefined): string => {
  const messages = (body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
};

describe('i --session-name: references across runs', () => {
  it('reads a reference of an earlier run of the same session, keeps the whole text in the log, and refuses it elsewhere', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-refs-'));
    const dir = join(root, 'project');
    mkdirSync(dir);
    writeFileSync(join(dir, 'big.txt'), BIG);
    let ref: { ref: string; offset: number } | undefined;
    server = await startModelServer({
      script: (request, index) => {
        if (index === 0) return { toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }] };
        if (index === 1) {
          ref = JSON.parse(/read_result (\{.*\})\]$/.exec(lastToolText(request.body))![1]!) as {
            ref: string;
            offset: number;
          };
          return { text: 'It is long.' };
        }
        if (index === 2 || index === 4) return { toolCalls: [{ name: 'read_result', arguments: ref! }] };
        return { text: 'Read.' };
      },
    });
    const config = join(root, 'model.json');
    writeFileSync(
      config,
      JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'm' }),
    );
    const first = await runI(['-C', dir, '--config', config, '--session-name', 'work', '-p', 'read big.txt'], root);
    expect(first.code, first.stderr).toBe(0);
    const second = await runI(['-C', dir, '--config', config, '--session-name', 'work', '-p', 'read on'], root);
    expect(second.code, second.stderr).toBe(0);
    const page = lastToolText(server.requests[3]!.body);
    expect(page).not.toMatch(/^Error/);
    expect(page).toContain('row ');
    expect(page).toMatch(/\[bytes \d+–\d+ of \d+; next: read_result/);

    const log = readFileSync(join(dir, '.i', 'sessions', 'work', 'log.ndjson'), 'utf8');
    const tools = log
      .trim()
      .split('\n')
      .map(
        (l) =>
          (JSON.parse(l) as { entry: { message?: { role: string; content: string; _full_output?: string } } }).entry
            .message,
      )
      .filter((m) => m?.role === 'tool');
    // `read` numbers the lines: the log holds that whole output, the model was sent its first 512 bytes.
    expect(tools[0]?._full_output).toContain('\trow 1999: 数据');
    expect(tools[0]?._full_output?.split('\n')).toHaveLength(2000);
    expect(tools[0]?.content).not.toContain('row 1999');

    const other = await runI(['-C', dir, '--config', config, '--session-name', 'other', '-p', 'read it here'], root);
    expect(other.code, other.stderr).toBe(0);
    expect(lastToolText(server.requests[5]!.body)).toMatch(/^untrusted_tool_data: true\nError E_CONTENT_SCOPE:/);
  }, 60_000);
});
