// The headless `i` as a real process: bundled with esbuild exactly as `npm run build:cli` does, then spawned.
import { spawn } from 'node:child_process';
import {
  existsSync,
  rmSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { desiredItems, projectInstructionsMessage, resolveSystemPrompt, snapshotMessage } from '../modules';
import { useBuiltCli } from './cli-test-kit';
import { testWorkspaceId } from './workspace-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const runI = useBuiltCli('main');
const bundle = runI.bundle;

function project(config?: Record<string, unknown>): { root: string; dir: string; configDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'i-cli-'));
  const dir = join(root, 'project');
  const configDir = join(root, 'conf');
  mkdirSync(dir);
  mkdirSync(configDir);
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  // The default profile meters the budget, so a config needs the model's window (E_CONFIG_BUDGET_WINDOW otherwise).
  if (config)
    writeFileSync(join(configDir, 'model.json'), JSON.stringify({ budget: { context_window: 1_000_000 }, ...config }));
  return { root, dir, configDir };
}

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('i (headless)', () => {
  it('prints complete help and exits 0', async () => {
    const r = await runI(['--help'], { cwd: tmpdir() });
    expect(r.code).toBe(0);
    for (const flag of [
      '-C DIR',
      '--config FILE',
      '--session-name NAME',
      '--yolo',
      '--dangerously-skip-permissions',
      '--json',
      '-p',
      'I_CONFIG_DIR',
      'api_key_env',
      '--cwd',
      '`-p -`',
      '--max-steps',
      'exit 130',
      '--recover NEW_NAME',
    ])
      expect(r.stdout).toContain(flag);
  });

  it.each([
    [['--json'], 'E_USAGE'],
    [['-p', 'hi', '--frobnicate'], 'E_USAGE'],
    [['-p', 'hi', '--session-name', '../escape', '--config', 'conf/model.json'], 'E_SESSION_NAME_INVALID'],
    // Number() would read these as 16, 100 and 3.
    [['-p', 'hi', '--max-steps', '0x10'], 'E_USAGE'],
    [['-p', 'hi', '--max-steps', '1e2'], 'E_USAGE'],
    [['-p', 'hi', '--max-steps', ' 3 '], 'E_USAGE'],
    [['--recover', 'copy'], 'E_USAGE'],
    [['--session-name', 's', '--recover', 'copy', '-p', 'hi'], 'E_USAGE'],
  ])('exits 2 on usage error %j', async (args, code) => {
    const p = project({ base_url: 'http://127.0.0.1:9/v1', model: 'm' });
    const r = await runI([...args, '--json'], { cwd: p.root });
    expect(r.code).toBe(2);
    expect(events(r.stdout).at(-1)).toMatchObject({ type: 'error', error: { code } });
  });

  it('refuses unknown config keys with their path (exit 2)', async () => {
    const p = project({ base_url: 'http://127.0.0.1:9/v1', model: 'm', budget: { context_window: 1000, window: 5 } });
    const r = await runI(['--config', 'conf/model.json', '-p', 'hi'], { cwd: p.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/E_CONFIG_UNKNOWN_KEY/);
    expect(r.stderr).toMatch(/At budget\.window: unknown key/);
  });

  it('exits 2 when the api_key_env variable is missing', async () => {
    const p = project({ base_url: 'http://127.0.0.1:9/v1', model: 'm', api_key_env: 'I_TEST_KEY' });
    const r = await runI(['--config', 'conf/model.json', '-p', 'hi'], { cwd: p.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('I_TEST_KEY');
  });

  it.each<WireProtocol>(['openai', 'deepseek', 'anthropic', 'responses'])(
    'runs a multi-step turn over %s, prints the answer and resumes the named session',
    async (protocol) => {
      server = await startModelServer({
        script: [
          { text: 'Let me check.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
          { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'copied' } }] },
          { text: 'The notes say hello.' },
          { text: 'Second answer.' },
        ],
      });
      const p = project({ protocol, base_url: server.baseUrl(protocol), model: 'scripted', api_key_env: 'I_TEST_KEY' });
      // --config is relative to the current directory (p.root), not to -C.
      const args = [
        '-C',
        'project',
        '--config',
        'conf/model.json',
        '--session-name',
        'work',
        '-p',
        'What do the notes say?',
      ];
      const first = await runI(args, { cwd: p.root, env: { I_TEST_KEY: 'sk-cli', I_CONFIG_DIR: p.configDir } });
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('The notes say hello.\n');
      expect(first.stderr).toBe('[read] ok\n[write] refused/failed: E_APPROVAL_REQUIRED\n');
      expect(server.requests).toHaveLength(3);
      expect(server.requests[1]!.rawBody).toContain('hello');
      // Without --yolo the write is refused, the model is told, and the run goes on.
      expect(server.requests[2]!.rawBody).toContain('E_APPROVAL_REQUIRED');
      expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
      expect(JSON.stringify(server.requests[0]!.headers)).toContain('sk-cli');
      expect(readdirSync(join(p.dir, '.i', 'sessions', 'work')).sort()).toEqual([
        'checkpoint.json',
        'checkpoints',
        'log.ndjson',
      ]); // checkpoints/: issue 16's file undo, a turn marker even without writes

      const second = await runI([...args.slice(0, -1), 'And again?', '--json'], {
        cwd: p.root,
        env: { I_TEST_KEY: 'sk-cli' },
      });
      expect(second.code).toBe(0);
      const evs = events(second.stdout);
      expect(evs[0]).toMatchObject({ type: 'start', version: 1, session: 'work', protocol });
      expect(evs.at(-1)).toMatchObject({ type: 'done', stop_reason: 'stop', text: 'Second answer.' });
      expect(evs.some((e) => e.type === 'text')).toBe(true);
      expect(evs.some((e) => e.type === 'checkpoint')).toBe(true);
      // The resumed request carries the earlier conversation.
      expect(server.requests[3]!.rawBody).toContain('The notes say hello.');
    },
  );

  it('runs tools that need approval under --yolo', async () => {
    server = await startModelServer({
      script: [
        { toolCalls: [{ name: 'write', arguments: { path: 'out.txt', content: 'copied' } }] },
        { text: 'Wrote it.' },
      ],
    });
    // route "bridge" (an app setting, here as exported from the app) changes nothing headless: Node has no CORS.
    const p = project({
      base_url: server.baseUrl('deepseek'),
      protocol: 'deepseek',
      model: 'scripted',
      route: 'bridge',
    });
    const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--yolo', '--json', '-p', 'copy'], {
      cwd: p.root,
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(p.dir, 'out.txt'), 'utf8')).toBe('copied');
    const evs = events(r.stdout);
    expect(evs.find((e) => e.type === 'approval')).toMatchObject({ name: 'write', allowed: true, by: 'yolo' });
    expect(evs.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'write', error: false });
  });

  it('exits 1 on a failed turn and reports it as the last JSON event; sends no auth header without api_key_env', async () => {
    server = await startModelServer({ script: [{ error: { status: 400, message: 'bad request from test' } }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const r = await runI(['--config', join(p.configDir, 'model.json'), '-C', p.dir, '--json', '-p', 'hi'], {
      cwd: tmpdir(),
    });
    expect(r.code).toBe(1);
    expect(events(r.stdout).at(-1)).toMatchObject({ type: 'error', stop_reason: 'error' });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('refuses a session that belongs to another workspace', async () => {
    server = await startModelServer({ script: [{ text: 'one' }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const cfg = join(p.configDir, 'model.json');
    expect((await runI(['-C', p.dir, '--config', cfg, '--session-name', 's', '-p', 'hi'], { cwd: p.root })).code).toBe(
      0,
    );
    const other = join(p.root, 'other');
    mkdirSync(join(other, '.i'), { recursive: true });
    // Someone copies the project's .i folder into another project.
    const { cpSync } = await import('node:fs');
    cpSync(join(p.dir, '.i'), join(other, '.i'), { recursive: true });
    const r = await runI(['-C', other, '--config', cfg, '--session-name', 's', '-p', 'hi'], { cwd: p.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_SESSION_WORKSPACE_MISMATCH');
    expect(JSON.parse(readFileSync(join(other, '.i', 'sessions', 's', 'checkpoint.json'), 'utf8')).workspace).toBe(
      p.dir,
    );
  });

  it('stops on Ctrl-C while the model is answering: exit 1, stop reason aborted, the prompt checkpointed, streamed text marked stopped', async () => {
    server = await startModelServer({ script: [{ text: 'never finished', hang: true }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const srv = server;
    const r = await runI(
      [
        '-C',
        p.dir,
        '--config',
        join(p.configDir, 'model.json'),
        '--session-name',
        'cut',
        '--json',
        '-p',
        'long question',
      ],
      {
        cwd: p.root,
        onSpawn: (pid) => {
          const poll = setInterval(() => {
            if (srv.requests.length > 0) {
              clearInterval(poll);
              process.kill(pid, 'SIGINT');
            }
          }, 20);
        },
      },
    );
    expect(r.code).toBe(1);
    expect(events(r.stdout).at(-1)).toMatchObject({
      type: 'error',
      stop_reason: 'aborted',
      error: { code: 'E_ABORTED' },
    });
    const log = readFileSync(join(p.dir, '.i', 'sessions', 'cut', 'log.ndjson'), 'utf8');
    expect(log).toContain('long question');
    // Text that streamed before the stop is kept, marked as stopped (it was shown); it is never saved as a finished answer.
    const answers = log.split('\n').filter((line) => line.includes('"role":"assistant"'));
    for (const line of answers) expect(line).toContain('"_stopped"');
  });

  describe('modules: prompts, AGENTS.md, memory and the profile', () => {
    const chat = (request: { body: Record<string, unknown> | undefined }) =>
      request.body!.messages as Array<Record<string, unknown>>;
    const toolNames = (request: { body: Record<string, unknown> | undefined }) =>
      (request.body!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name).sort();

    it('sends system prompt → AGENTS.md → prompt, then the memory snapshot after memory_set, and writes memory.json under I_DATA_DIR', async () => {
      server = await startModelServer({
        script: [
          { toolCalls: [{ name: 'memory_set', arguments: { key: 'lang', value: 'TypeScript' } }] },
          { text: 'Noted.' },
        ],
      });
      const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
      const agents = '# Rules\nUse tabs.\n';
      writeFileSync(join(p.dir, 'AGENTS.md'), agents);
      mkdirSync(join(p.configDir, 'prompts'));
      writeFileSync(join(p.configDir, 'prompts', 'system.txt'), 'You work in {{workspace}}.');
      writeFileSync(join(p.configDir, 'prompts.json'), JSON.stringify({ system: 'prompts/system.txt' }));
      const dataDir = join(p.root, 'data');
      const r = await runI(
        ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--yolo', '-p', 'remember the language'],
        {
          cwd: p.root,
          env: { I_CONFIG_DIR: p.configDir, I_DATA_DIR: dataDir },
        },
      );
      expect(r.stderr).toBe('[memory_set] ok\n');
      expect(r.code).toBe(0);
      const workspace = realpathSync(p.dir);
      const first = chat(server.requests[0]!);
      expect(first).toEqual([
        { role: 'system', content: resolveSystemPrompt({ workspace, replacement: 'You work in {{workspace}}.' }) },
        { role: 'user', content: projectInstructionsMessage(agents)!.content },
        { role: 'user', content: 'remember the language' },
      ]);
      expect(first[0]!.content).toBe(`You work in ${workspace}.`);
      // Memory was empty: no snapshot yet. After memory_set the snapshot is appended; the prefix is unchanged.
      const second = chat(server.requests[1]!);
      expect(second.slice(0, 3)).toEqual(first);
      expect(second.slice(3).map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
      expect(second[5]).toEqual({
        role: 'user',
        content: snapshotMessage(desiredItems({ memory: { lang: 'TypeScript' } })).content,
      });
      const file = join(dataDir, 'workspaces', testWorkspaceId(dataDir, p.dir), 'memory.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, entries: { lang: 'TypeScript' } });
    });

    it('offers memory and web tools and the memory snapshot by default; plugins.json "disabled" removes both', async () => {
      server = await startModelServer({
        script: [
          { toolCalls: [{ name: 'web_fetch', arguments: { url: 'http://127.0.0.1:9/admin' } }] },
          { text: 'one' },
          { text: 'two' },
        ],
      });
      const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
      const dataDir = join(p.root, 'data');
      mkdirSync(join(dataDir, 'workspaces', testWorkspaceId(dataDir, p.dir)), { recursive: true });
      writeFileSync(
        join(dataDir, 'workspaces', testWorkspaceId(dataDir, p.dir), 'memory.json'),
        JSON.stringify({ version: 1, entries: { style: 'tabs' } }),
      );
      const env = { I_CONFIG_DIR: p.configDir, I_DATA_DIR: dataDir };
      const args = ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'];
      const first = await runI([...args, '--yolo'], { cwd: p.root, env });
      expect(first.code).toBe(0);
      // web_fetch runs through the Node backend with the bridge's address checks: loopback is refused.
      expect(first.stderr).toBe('[web_fetch] refused/failed: E_WEB_PRIVATE_ADDRESS\n');
      expect(toolNames(server.requests[0]!)).toEqual([
        'edit',
        'glob',
        'memory_get',
        'memory_set',
        'read',
        'read_result',
        'search',
        'shell',
        'shell_output',
        'shell_stop',
        'skill_load',
        'skill_read',
        'view_image',
        'web_fetch',
        'write',
      ]);
      expect(chat(server.requests[0]!).map((m) => m.content)).toContain(
        snapshotMessage(desiredItems({ memory: { style: 'tabs' } })).content,
      );

      writeFileSync(
        join(p.configDir, 'plugins.json'),
        JSON.stringify({ profile: 'standard', disabled: ['memory', 'web', 'skills'] }),
      );
      expect((await runI(args, { cwd: p.root, env })).code).toBe(0);
      expect(toolNames(server.requests[2]!)).toEqual([
        'edit',
        'glob',
        'read',
        'read_result',
        'search',
        'shell',
        'shell_output',
        'shell_stop',
        'view_image',
        'write',
      ]);
      expect(chat(server.requests[2]!).map((m) => m.role)).toEqual(['system', 'user']);
    });

    it('refuses an invalid plugins.json as a configuration error (exit 2) naming the file', async () => {
      const p = project({ base_url: 'http://127.0.0.1:9/v1', model: 'm' });
      writeFileSync(
        join(p.configDir, 'plugins.json'),
        JSON.stringify({ profile: 'standard', disabled: ['telepathy'] }),
      );
      const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'], {
        cwd: p.root,
        env: { I_CONFIG_DIR: p.configDir },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('E_PROFILE_INVALID');
      expect(r.stderr).toContain('plugins.json');
    });
  });
});

describe('i (headless) under bad input', () => {
  /** Every stdout line is one JSON object, and the last one is the error with this code. */
  const lastJsonError = (stdout: string) => {
    const lines = stdout.split('\n').filter((l) => l !== '');
    const parsed = lines.map((l) => JSON.parse(l) as { type: string; error?: { code: string; message: string } });
    expect(parsed.at(-1)!.type).toBe('error');
    return parsed.at(-1)!.error!;
  };

  it.each([
    ['an empty file', '', 'E_CONFIG_INVALID', /is empty\. Write a JSON object/],
    [
      'a JSON string holding a config (never parsed twice)',
      JSON.stringify(
        JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: 'http://127.0.0.1:9/v1', model: 'm' }),
      ),
      'E_CONFIG_INVALID',
      /At \(root\): expected a JSON object/,
    ],
    ['broken JSON', '{"base_url": ', 'E_CONFIG_INVALID', /not valid JSON: .*Fix the syntax/],
    [
      'a file over 1 MiB',
      `{"model": "m", "base_url": "http://127.0.0.1:9/v1"${' '.repeat(1024 * 1024)}}`,
      'E_CONFIG_TOO_LARGE',
      /larger than 1048576 bytes/,
    ],
  ])('refuses a model config that is %s: exit 2, one NDJSON error line', async (_what, text, code, message) => {
    const p = project();
    writeFileSync(join(p.configDir, 'model.json'), text);
    const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--json', '-p', 'hi'], {
      cwd: p.root,
    });
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const error = lastJsonError(r.stdout);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('reads a device that never ends as a config only up to the limit', async () => {
    const p = project();
    const r = await runI(['-C', p.dir, '--config', '/dev/zero', '-p', 'hi'], { cwd: p.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error E_CONFIG_TOO_LARGE:');
  });

  it('says how to create the default config when there is none', async () => {
    const p = project();
    const r = await runI(['-C', p.dir, '-p', 'hi'], { cwd: p.root, env: { I_CONFIG_DIR: p.configDir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error E_CONFIG_MISSING: No model config at ${join(p.configDir, 'config.json')}. Create it with at least {"base_url": "http://127.0.0.1:11434/v1", "model": "..."} (all fields: \`i --help\`), or pass --config FILE.\n`,
    );
  });

  it('accepts a config saved with a UTF-8 byte order mark (Windows editors)', async () => {
    server = await startModelServer({ script: [{ text: 'ok' }] });
    const p = project();
    writeFileSync(
      join(p.configDir, 'model.json'),
      `\uFEFF${JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'scripted' })}`,
    );
    const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'], { cwd: p.root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('ends approval.json errors with what to write, without a doubled full stop', async () => {
    const p = project({ base_url: 'http://127.0.0.1:9/v1', model: 'm' });
    writeFileSync(join(p.configDir, 'approval.json'), '[1]');
    const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'], {
      cwd: p.root,
      env: { I_CONFIG_DIR: p.configDir },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error E_CONFIG_INVALID: The approval settings .* are invalid: .*[^.]\. Write \{"mode": "ask"\|"auto", "deny_tools": \[\.\.\.\], "rules": \[.*\]\} or remove the file \(default: ask\)\.\n$/,
    );
  });

  it.each([
    ['a session folder without log.ndjson', true],
    ['a file where the .i folder should be', false],
  ])('reports %s as E_SESSION_FAILED with a fix, changing nothing', async (_what, withSession) => {
    server = await startModelServer({ script: [{ text: 'first' }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const args = [
      '-C',
      p.dir,
      '--config',
      join(p.configDir, 'model.json'),
      '--session-name',
      's',
      '--json',
      '-p',
      'hi',
    ];
    const checkpoint = join(p.dir, '.i', 'sessions', 's', 'checkpoint.json');
    if (withSession) {
      expect((await runI(args, { cwd: p.root })).code).toBe(0);
      rmSync(join(p.dir, '.i', 'sessions', 's', 'log.ndjson'));
    } else {
      writeFileSync(join(p.dir, '.i'), 'not a folder');
    }
    const kept = withSession ? readFileSync(checkpoint, 'utf8') : null;
    const before = readdirSync(p.dir, { recursive: true }).sort();
    const r = await runI(args, { cwd: p.root });
    expect(r.code).toBe(2);
    const error = lastJsonError(r.stdout);
    // Before: the Node error's own code (ENOENT / ENOTDIR) and no advice.
    expect(error.code).toBe('E_SESSION_FAILED');
    expect(error.message).toContain('or choose another --session-name');
    expect(readdirSync(p.dir, { recursive: true }).sort()).toEqual(before);
    if (kept !== null) expect(readFileSync(checkpoint, 'utf8')).toBe(kept);
  });

  it('names api_key_env, not the browser credentials store, when the provider refuses the key', async () => {
    server = await startModelServer({
      script: [{ error: { status: 401, message: 'invalid key' } }, { error: { status: 401, message: 'invalid key' } }],
    });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const r = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'], { cwd: p.root });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error E_PROVIDER_AUTH: The provider refused the request (401: invalid key). No key was sent: ${join(p.configDir, 'model.json')} has no api_key_env. Set "api_key_env" to the name of the environment variable that holds the key.\n`,
    );
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        budget: { context_window: 1_000_000 },
        base_url: server.baseUrl('openai'),
        model: 'scripted',
        api_key_env: 'I_TEST_KEY',
      }),
    );
    const withKey = await runI(['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--json', '-p', 'hi'], {
      cwd: p.root,
      env: { I_TEST_KEY: 'sk-wrong' },
    });
    expect(lastJsonError(withKey.stdout).message).toContain('Check the key in the environment variable I_TEST_KEY');
  });

  it('explains a connection cut mid-stream without browser advice; the session stays usable', async () => {
    const { createServer } = await import('node:http');
    const cutter = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: 'half' }, finish_reason: null }] })}\n\n`,
        );
        setTimeout(() => res.socket?.destroy(), 50);
      });
    });
    await new Promise<void>((ok) => cutter.listen(0, '127.0.0.1', ok));
    try {
      const port = (cutter.address() as { port: number }).port;
      const p = project({ base_url: `http://127.0.0.1:${port}/v1`, model: 'm' });
      const r = await runI(
        [
          '-C',
          p.dir,
          '--config',
          join(p.configDir, 'model.json'),
          '--session-name',
          'cut',
          '--json',
          '-p',
          'keep this question',
        ],
        { cwd: p.root },
      );
      expect(r.code).toBe(1);
      const error = lastJsonError(r.stdout);
      expect(error.code).toBe('E_NETWORK');
      expect(error.message).toMatch(
        /^The connection to http:\/\/127\.0\.0\.1:\d+ failed \(.+\)\. Check that the model server runs and that base_url in .*model\.json is right, then try again\.$/,
      );
      expect(error.message).not.toMatch(/browser|CORS|Chrome/);
      // The failed turn leaves the session usable: the next run resumes it.
      server = await startModelServer({ script: [{ text: 'whole answer' }] });
      writeFileSync(
        join(p.configDir, 'model.json'),
        JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'm' }),
      );
      const again = await runI(
        ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--session-name', 'cut', '-p', 'again'],
        { cwd: p.root },
      );
      expect(again.stdout).toBe('whole answer\n');
      expect(again.code).toBe(0);
    } finally {
      await new Promise((ok) => cutter.close(ok));
    }
  });

  it('copies the intact part of a damaged session into a new one with --recover, leaving the damaged one as it was', async () => {
    server = await startModelServer({
      script: [
        { text: 'Let me check.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
        { text: 'The notes say hello.' },
        { text: 'Recovered answer.' },
      ],
    });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const cfg = ['--config', join(p.configDir, 'model.json')];
    expect(
      (await runI(['-C', p.dir, ...cfg, '--session-name', 'broken', '-p', 'What do the notes say?'], { cwd: p.root }))
        .code,
    ).toBe(0);
    const sessions = join(realpathSync(p.dir), '.i', 'sessions');
    const log = join(sessions, 'broken', 'log.ndjson');
    // The tool result's line is damaged (same length): the session is refused, pointing at --recover.
    const lines = readFileSync(log, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"role":"tool"'));
    lines[at] = `{${' '.repeat(Buffer.byteLength(lines[at]!) - 1)}`;
    writeFileSync(log, lines.join('\n'));
    const damaged = [readFileSync(log), readFileSync(join(sessions, 'broken', 'checkpoint.json'))];
    const refused = await runI(['-C', p.dir, ...cfg, '--session-name', 'broken', '-p', 'again'], { cwd: p.root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error E_SESSION_CORRUPT');
    // The suggested command names the project folder, so it works from any current directory.
    expect(refused.stderr).toContain(
      `i -C ${JSON.stringify(realpathSync(p.dir))} --session-name broken --recover NEW_NAME`,
    );

    const r = await runI(['-C', p.dir, '--session-name', 'broken', '--recover', 'rescued'], { cwd: p.root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `Recovered the session "broken" into the new session "rescued" (${join(sessions, 'rescued')})`,
    );
    expect(r.stdout).toContain(`(entries 0–${at - 1} of 0–${lines.filter(Boolean).length - 1} were intact)`);
    // The assistant's tool call lost its result, so it is left out: never a half batch.
    expect(r.stdout).toContain('The 1 intact message(s) after it were left out');
    expect(r.stdout).toContain(
      `The damaged session "broken" was not changed: restore ${join(sessions, 'broken')} from a backup`,
    );
    expect(r.stdout).toContain(`Continue with: i -C ${realpathSync(p.dir)} --session-name rescued -p PROMPT`);
    expect([readFileSync(log), readFileSync(join(sessions, 'broken', 'checkpoint.json'))]).toEqual(damaged);
    expect(JSON.parse(readFileSync(join(sessions, 'rescued', 'checkpoint.json'), 'utf8')).title).toBe(
      'What do the notes say? (recovered)',
    );

    // The recovered session resumes like any other: the model sees the question, not the lost batch.
    const next = await runI(['-C', p.dir, ...cfg, '--session-name', 'rescued', '-p', 'And now?'], { cwd: p.root });
    expect(next).toMatchObject({ code: 0, stdout: 'Recovered answer.\n' });
    const body = server.requests.at(-1)!.rawBody;
    expect(body).toContain('What do the notes say?');
    expect(body).not.toContain('Let me check.');
    const again = await runI(['-C', p.dir, '--session-name', 'rescued', '--recover', 'twice'], { cwd: p.root });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error E_SESSION_NOT_DAMAGED: /);
    expect(existsSync(join(sessions, 'twice'))).toBe(false);
  });

  it('says what to do when the stream ends without a finish reason, and keeps the partial answer', async () => {
    const chunk = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: 'half an answer' }, finish_reason: null }] })}\n\n`;
    server = await startModelServer({ script: [{ raw: { contentType: 'text/event-stream', body: chunk } }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const r = await runI(
      ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '--session-name', 'part', '-p', 'hi'],
      { cwd: p.root },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('half an answer\n');
    expect(r.stderr).toBe(
      'error E_TURN_INCOMPLETE: The model server ended the stream before the answer was finished (no finish reason). Try again; with --session-name the conversation so far is kept.\n',
    );
    expect(readFileSync(join(p.dir, '.i', 'sessions', 'part', 'log.ndjson'), 'utf8')).toContain('half an answer');
  });

  it('reads the prompt from standard input with -p -, and refuses an empty one', async () => {
    server = await startModelServer({ script: [{ text: 'read it' }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const args = ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', '-'];
    const r = await runI(args, { cwd: p.root, input: 'a question\nover two lines\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('read it\n');
    expect((server.requests[0]!.body!.messages as Array<{ content: string }>).at(-1)!.content).toBe(
      'a question\nover two lines\n',
    );
    const empty = await runI([...args, '--json'], { cwd: p.root, input: '  \n' });
    expect(empty.code).toBe(2);
    expect(lastJsonError(empty.stdout).code).toBe('E_USAGE');
    expect(server.requests).toHaveLength(1);
  });
});

describe('i (headless) when its reader goes away', () => {
  it('stops the turn on a closed stdout (EPIPE) instead of crashing, and keeps the prompt in the session', async () => {
    server = await startModelServer({ script: [{ text: 'word ... '.repeat(400), chunkDelayMs: 10 }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const child = spawn(
      process.execPath,
      [
        bundle,
        '-C',
        p.dir,
        '--config',
        join(p.configDir, 'model.json'),
        '--session-name',
        'piped',
        '--json',
        '-p',
        'the question',
      ],
      {
        cwd: p.root,
        env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'i-home-')) },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Like `| head -1`: read the first text event, then close the pipe.
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('"type":"text"')) child.stdout.destroy();
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toContain('Unhandled');
    expect(stderr).toContain('error E_STDOUT_CLOSED:');
    expect(code).toBe(1);
    expect(readFileSync(join(p.dir, '.i', 'sessions', 'piped', 'log.ndjson'), 'utf8')).toContain('the question');
  });

  it('stops cleanly when stdout and stderr are the same closed pipe (2>&1 | head -1)', async () => {
    server = await startModelServer({ script: [{ text: 'word ... '.repeat(400), chunkDelayMs: 10 }] });
    const p = project({ base_url: server.baseUrl('openai'), model: 'scripted' });
    const run = spawn(
      '/bin/sh',
      [
        '-c',
        `"${process.execPath}" "${bundle}" -C "${p.dir}" --config "${join(p.configDir, 'model.json')}" --session-name both --json -p 'the question' 2>&1 | head -c 1 >/dev/null`,
      ],
      {
        cwd: p.root,
        env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'i-home-')) },
      },
    );
    await new Promise<void>((done) => run.on('close', () => done()));
    // The turn was stopped and its session kept: no crash left a half-written log without the prompt.
    await new Promise((r) => setTimeout(r, 300));
    expect(readFileSync(join(p.dir, '.i', 'sessions', 'both', 'log.ndjson'), 'utf8')).toContain('the question');
  });
});
