// `i --session-name NAME --compact [FOCUS]` as a real process against the scripted model server: the saved session is
// compacted without a prompt, the focus reaches the summary request, the log keeps everything, and a later run sends
// the summary instead of the folded messages.
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

const cli = useBuiltCli('compact');
const runI = (args: string[], cwd: string, env: Record<string, string> = {}) => cli(args, { cwd, env });

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const chat = (r: { body: Record<string, unknown> | undefined }) =>
  r.body!.messages as Array<{ role: string; content: unknown }>;

describe('i --compact', () => {
  it('compacts a saved session with focus text, keeps the log whole, and the next run sends the summary', async () => {
    server = await startModelServer({
      script: [
        { text: 'Reading.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
        { text: 'The notes say hello.' },
        { text: 'Answer two.' },
        { text: 'Answer three.' },
        { text: 'Goal: read notes.\nFiles touched: notes.txt (read).', usage: { input: 900, output: 20 } },
        { text: 'Answer four.' },
      ],
    });
    const root = mkdtempSync(join(tmpdir(), 'i-compact-'));
    const dir = join(root, 'project');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, 'AGENTS.md'), 'Project rule: keep answers short.');
    writeFileSync(
      join(root, 'model.json'),
      JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'scripted' }),
    );
    const base = ['-C', 'project', '--config', 'model.json', '--session-name', 'work'];
    for (const prompt of ['What do the notes say?', 'Second?', 'Third?'])
      expect((await runI([...base, '-p', prompt], root)).code).toBe(0);
    const logFile = join(dir, '.i', 'sessions', 'work', 'log.ndjson');
    const before = readFileSync(logFile, 'utf8');

    const r = await runI([...base, '--compact', 'keep the file list'], root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // system, AGENTS.md | question, tool call, tool result, answer | the last 4 kept.
    expect(r.stdout).toMatch(
      /^Compacted the session "work": 4 messages \(1 tool results\) folded into a summary, about \d+ → \d+ tokens\. Focus: keep the file list\.\n\nGoal: read notes\.\nFiles touched: notes\.txt \(read\)\.\n$/,
    );
    const summaryRequest = server.requests[4]!;
    expect(summaryRequest.rawBody).toContain('Pay particular attention to: keep the file list');
    expect(summaryRequest.body!.tools).toBeUndefined();
    // The log is append-only: everything from before is still there, then the compaction's reset.
    const after = readFileSync(logFile, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toContain('"compaction_summary"');

    const next = await runI([...base, '-p', 'Fourth?'], root);
    expect(next.code).toBe(0);
    const sent = chat(server.requests[5]!);
    expect(sent.map((m) => m.role)).toEqual([
      'system',
      'user',
      'user',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(String(sent[1]!.content)).toContain('Project rule: keep answers short.');
    expect(String(sent[2]!.content)).toContain('Goal: read notes.');
    expect(JSON.stringify(sent)).not.toContain('What do the notes say?');
  }, 60_000);

  it('--json prints the compaction events; nothing to fold is exit 1 with the session unchanged', async () => {
    // Long first exchanges, so a short summary of them is smaller than what it replaces.
    server = await startModelServer({
      script: [
        { text: `One: ${'detail '.repeat(80)}` },
        { text: 'Two.' },
        { text: 'Three.' },
        { text: 'Summary of one and two.' },
      ],
    });
    const root = mkdtempSync(join(tmpdir(), 'i-compact-'));
    mkdirSync(join(root, 'project'));
    writeFileSync(
      join(root, 'model.json'),
      JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'scripted' }),
    );
    const base = ['-C', 'project', '--config', 'model.json', '--session-name', 's'];
    expect((await runI([...base, '-p', `first: ${'context '.repeat(80)}`], root)).code).toBe(0);
    const logFile = join(root, 'project', '.i', 'sessions', 's', 'log.ndjson');
    const short = readFileSync(logFile, 'utf8');
    const nothing = await runI([...base, '--compact', '--json'], root);
    expect(nothing.code).toBe(1);
    const failed = events(nothing.stdout);
    expect(failed.find((e) => e.type === 'compaction_failed')).toMatchObject({
      error: { code: 'E_COMPACT_NOTHING_TO_FOLD' },
    });
    expect(failed.at(-1)).toMatchObject({
      type: 'error',
      stop_reason: 'error',
      error: { code: 'E_COMPACT_NOTHING_TO_FOLD' },
    });
    expect(readFileSync(logFile, 'utf8')).toBe(short);
    expect(server.requests).toHaveLength(1);

    for (const prompt of ['second', 'third']) expect((await runI([...base, '-p', prompt], root)).code).toBe(0);
    const r = await runI([...base, '--json', '--compact=-focus on names'], root);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    // The summary streams as text (shown, never taken for an answer), then what it used and what it folded.
    expect(evs.map((e) => e.type).filter((t, i, all) => t !== 'text' || all[i - 1] !== 'text')).toEqual([
      'start',
      'step',
      'text',
      'usage',
      'compacted',
      'checkpoint',
      'done',
    ]);
    expect(evs.find((e) => e.type === 'usage')).toMatchObject({
      compact: true,
      context: { window: 1_000_000, trigger: 800_000 },
    });
    expect(evs.find((e) => e.type === 'compacted')).toMatchObject({
      removed: 2,
      summary: 'Summary of one and two.',
      compaction: { manual: true, focus: '-focus on names', folded_messages: 2 },
    });
    expect(server.requests[3]!.rawBody).toContain('Pay particular attention to: -focus on names');
  }, 60_000);

  it.each([
    [['--compact'], '--session-name'],
    [['--session-name', 's', '--compact', 'x', '-p', 'hi'], 'runs no prompt'],
  ])('refuses %j as a usage error (exit 2)', async (args, text) => {
    const r = await runI(args, tmpdir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_USAGE');
    expect(r.stderr).toContain(text);
  });

  it('refuses a session that does not exist instead of creating one, and documents --compact in --help', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-compact-'));
    mkdirSync(join(root, 'project'));
    writeFileSync(
      join(root, 'model.json'),
      JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: 'http://127.0.0.1:9/v1', model: 'scripted' }),
    );
    const r = await runI(['-C', 'project', '--config', 'model.json', '--session-name', 'nope', '--compact'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/E_SESSION_NOT_FOUND.*--compact works on a saved session/);
    expect(() => readFileSync(join(root, 'project', '.i', 'sessions', 'nope', 'log.ndjson'))).toThrow();
    const help = await runI(['--help'], tmpdir());
    expect(help.stdout).toContain('--compact [FOCUS]');
    expect(help.stdout).toContain('E_COMPACT_NOTHING_TO_FOLD');
  });
});
