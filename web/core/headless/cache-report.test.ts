// `i cache-report` as a real process (the CLI entry bundled as `npm run build:cli` does), on statistics files the
// cache module recorded (__fixtures__/cache-stats: written by the real createCacheModule + Node stats store from
// Anthropic, OpenAI and DeepSeek usage), and on the file a real `i` turn writes.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { CACHE_REPORT_USAGE, type CacheReportDocument } from './cache-report';
import { runCli } from './run';
import { testWorkspaceId } from './workspace-test-kit';
import { useBuiltCli } from './cli-test-kit';

const fixtures = join(__dirname, '__fixtures__', 'cache-stats');

const roots: string[] = [];
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

interface Project {
  root: string;
  dir: string;
  configDir: string;
  dataDir: string;
  statsFile: string;
}

function project(opts: { fixture?: string; cacheJson?: unknown } = {}): Project {
  const root = mkdtempSync(join(tmpdir(), 'i-cache-report-'));
  roots.push(root);
  const dir = join(root, 'project');
  const configDir = join(root, 'conf');
  const dataDir = join(root, 'data');
  for (const d of [dir, configDir, dataDir]) mkdirSync(d);
  const id = testWorkspaceId(dataDir, dir);
  const statsFile = join(dataDir, 'workspaces', id, 'metrics', 'cache-stats.json');
  if (opts.fixture) {
    mkdirSync(dirname(statsFile), { recursive: true });
    copyFileSync(join(fixtures, opts.fixture), statsFile);
  }
  if (opts.cacheJson !== undefined) writeFileSync(join(configDir, 'cache.json'), JSON.stringify(opts.cacheJson));
  return { root, dir, configDir, dataDir, statsFile };
}

const cli = useBuiltCli('cache-report');
const report = (p: Project, args: string[]) =>
  cli(['cache-report', '-C', p.dir, ...args], {
    cwd: p.root,
    env: { HOME: p.root, I_CONFIG_DIR: p.configDir, I_DATA_DIR: p.dataDir },
  });

const json = async (p: Project, args: string[] = []) => {
  const r = await report(p, ['--json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as CacheReportDocument;
};

describe('i cache-report', () => {
  it('documents every field of the report in --help', async () => {
    const r = await report(project(), ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${CACHE_REPORT_USAGE}\n`);
    const doc = await json(project({ fixture: 'anthropic-all-observed.json' }));
    for (const field of Object.keys(doc)) expect(r.stdout, field).toMatch(new RegExp(`\\b${field}\\b`));
    for (const flag of ['-C, --cwd DIR', '--config FILE', '--json', 'E_CACHE_STATS_MISSING', 'E_CACHE_STATS_CORRUPT'])
      expect(r.stdout).toContain(flag);
  });

  it('target_met is true when every request was observed with known usage and the ratio reaches the target', async () => {
    const p = project({
      fixture: 'anthropic-all-observed.json',
      cacheJson: { mode: 'anthropic', namespace: 'work', target_hit_ratio: 0.6 },
    });
    const doc = await json(p);
    expect(doc).toMatchObject({
      version: 1,
      namespace: 'work',
      prepared: 10,
      observed: 10,
      unknown_usage: 0,
      unobserved: 0,
      input_tokens: 98_590,
      cache_read_tokens: 63_800,
      target_hit_ratio: 0.6,
      target_met: true,
      target_met_reason: 'met',
    });
    expect(doc.config).toMatchObject({ mode: 'anthropic', namespace: 'work' });
    expect(doc.observed_token_hit_ratio).toBeCloseTo(63_800 / 98_590, 12);
    // Anthropic cache creation was recorded as input, never as a hit: the first request read nothing.
    expect(doc.records[0]).toMatchObject({ class: 'new', input: 10_020, cache_read: 0 });
    expect(doc.classes).toEqual({ new: 2, append: 5, reset: 1, compact: 2 });
    expect(doc.streams).toHaveLength(2);
    expect(doc.streams[0]!.last_at).toBeGreaterThanOrEqual(doc.streams[1]!.last_at);
    expect(doc.records).toHaveLength(10);

    const table = await report(p, []);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/hit ratio {4}64\.7% \(Σ cache read \/ Σ input\), target 60\.0%/);
    expect(table.stdout).toMatch(/target met {3}yes\n/);
    expect(table.stdout).toMatch(/classes {6}new 2 · append 5 · reset 1 · compact 2/);
    expect(table.stdout).toMatch(/Last 10 of 10 record\(s\), oldest first:/);
  });

  it('target_met is false when the same complete statistics fall short of the default 0.99', async () => {
    const p = project({ fixture: 'anthropic-all-observed.json' });
    const doc = await json(p);
    expect(doc).toMatchObject({
      target_hit_ratio: 0.99,
      target_met: false,
      target_met_reason: 'missed',
      config: { mode: 'observe', namespace: 'default' },
    });
    const table = await report(p, []);
    expect(table.stdout).toMatch(/target met {3}no\n/);
    expect(table.stdout).toContain('(the file was recorded under work)');
  });

  it('target_met is null while a prepared request (a retry) was never observed, whatever the ratio', async () => {
    const p = project({ fixture: 'openai-unobserved.json', cacheJson: { target_hit_ratio: 0 } });
    const doc = await json(p);
    expect(doc).toMatchObject({
      prepared: 4,
      observed: 2,
      unobserved: 2,
      unknown_usage: 0,
      target_met: null,
      target_met_reason: 'unobserved',
    });
    expect(doc.observed_token_hit_ratio).toBeCloseTo(3_968 / 8_200, 12);
    const table = await report(p, []);
    expect(table.stdout).toContain(
      'target met   unknown: 2 prepared request(s) (retries included) were never observed',
    );
    expect(table.stdout).toMatch(/ ×2\n/);
  });

  it('target_met is null while any usage was unknown (DeepSeek without hit/miss is not counted as 0)', async () => {
    const doc = await json(project({ fixture: 'deepseek-unknown-usage.json' }));
    expect(doc).toMatchObject({
      prepared: 3,
      observed: 3,
      unknown_usage: 1,
      unobserved: 0,
      input_tokens: 6_154,
      cache_read_tokens: 2_944,
      target_met: null,
      target_met_reason: 'unknown_usage',
    });
    expect(doc.records.at(-1)).toMatchObject({ observed: true, input: null, cache_read: null });
  });

  it('reads the file a real turn of `i` wrote for the same project', async () => {
    const p = project();
    server = await startModelServer({ script: [{ text: 'ok', usage: { input: 321, output: 4 } }] });
    writeFileSync(
      join(p.configDir, 'model.json'),
      JSON.stringify({
        budget: { context_window: 1_000_000 },
        base_url: server.baseUrl('openai'),
        model: 'm',
        max_tokens: 64,
      }),
    );
    const code = await runCli({
      argv: ['-C', p.dir, '--config', join(p.configDir, 'model.json'), '-p', 'hi'],
      env: { HOME: p.root, I_CONFIG_DIR: p.configDir, I_DATA_DIR: p.dataDir },
      cwd: p.dir,
      stdout: () => undefined,
      stderr: () => undefined,
      signal: new AbortController().signal,
      version: 'test',
    });
    expect(code).toBe(0);
    const doc = await json(p);
    expect(doc).toMatchObject({
      stats_file: p.statsFile,
      prepared: 1,
      observed: 1,
      input_tokens: 321,
      cache_read_tokens: 0,
      target_met: false,
      classes: { new: 1 },
    });
  });

  it.each([
    ['no statistics yet', {}, [], 'E_CACHE_STATS_MISSING'],
    ['a file that is not a statistics document', { foreign: '{"hello": "world"}' }, [], 'E_CACHE_STATS_CORRUPT'],
    [
      'a statistics document with a broken total',
      {
        foreign: JSON.stringify({
          version: 1,
          namespace: 'x',
          totals: {
            prepared: -1,
            observed: 0,
            unknown_usage: 0,
            input_tokens: 0,
            cache_read_tokens: 0,
            output_tokens: 0,
            classes: { new: 0, append: 0, reset: 0, compact: 0 },
          },
          records: [],
          streams: {},
        }),
      },
      [],
      'E_CACHE_STATS_CORRUPT',
    ],
    ['a cache.json with an unknown key', { cacheJson: { mode: 'observe', colour: 'red' } }, [], 'E_CACHE_CONFIG'],
    ['a --config file that does not exist', {}, ['--config', 'nowhere.json'], 'E_CONFIG_UNREADABLE'],
    ['an unknown option', {}, ['--frobnicate'], 'E_USAGE'],
  ] as const)('exits 2 with a code and a sentence on %s', async (_what, setup, args, code) => {
    const p = project('cacheJson' in setup ? { cacheJson: setup.cacheJson } : {});
    if ('foreign' in setup) {
      mkdirSync(dirname(p.statsFile), { recursive: true });
      writeFileSync(p.statsFile, setup.foreign);
    }
    const r = await report(p, [...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^error ${code}: .+\\.`));
    // A foreign file is left exactly as it was.
    if ('foreign' in setup) expect(readFileSync(p.statsFile, 'utf8')).toBe(setup.foreign);
    const asJson = await report(p, [...args, '--json']);
    expect(asJson.code).toBe(2);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ type: 'error', error: { code } });
  });
});
