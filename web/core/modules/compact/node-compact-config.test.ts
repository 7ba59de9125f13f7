import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCompactConfig } from './node-compact-config';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function configDir(files: Record<string, string>) {
  const d = await mkdtemp(join(tmpdir(), 'compact-config-'));
  dirs.push(d);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(d, name, '..'), { recursive: true });
    await writeFile(join(d, name), text);
  }
  return d;
}

describe('loading compact.json', () => {
  it('uses the defaults when there is no compact.json', async () => {
    expect(await loadCompactConfig(await configDir({}))).toEqual({
      config: { enabled: true, keep_recent: 4, images: 'keep' },
    });
  });

  it('reads the replacement prompt relative to compact.json', async () => {
    const d = await configDir({
      'compact.json': '{"keep_recent": 6, "prompt": "prompts/compact.txt"}',
      'prompts/compact.txt': 'Summarise in three lines.',
    });
    expect(await loadCompactConfig(d)).toMatchObject({
      config: { keep_recent: 6 },
      promptText: 'Summarise in three lines.',
    });
  });

  it('refuses a prompt outside the config folder, a missing one and an empty one', async () => {
    await expect(loadCompactConfig(await configDir({ 'compact.json': '{"prompt": "../x.txt"}' }))).rejects.toThrow(
      /inside/,
    );
    await expect(loadCompactConfig(await configDir({ 'compact.json': '{"prompt": "missing.txt"}' }))).rejects.toThrow(
      /cannot read/,
    );
    await expect(
      loadCompactConfig(await configDir({ 'compact.json': '{"prompt": "p.txt"}', 'p.txt': '  \n' })),
    ).rejects.toThrow(/empty/);
  });

  it('takes prompts.json "compact" when compact.json names no prompt; compact.json "prompt" wins over it', async () => {
    const prompts = {
      'prompts.json': '{"compact": "p/from-prompts.txt"}',
      'p/from-prompts.txt': 'PROMPTS-JSON compaction prompt.',
    };
    expect(await loadCompactConfig(await configDir(prompts))).toMatchObject({
      promptText: 'PROMPTS-JSON compaction prompt.',
    });
    expect(
      await loadCompactConfig(await configDir({ ...prompts, 'compact.json': '{"keep_recent": 5}' })),
    ).toMatchObject({ config: { keep_recent: 5 }, promptText: 'PROMPTS-JSON compaction prompt.' });
    const both = await configDir({
      ...prompts,
      'compact.json': '{"prompt": "own.txt"}',
      'own.txt': 'COMPACT-JSON prompt.',
    });
    expect(await loadCompactConfig(both)).toMatchObject({ promptText: 'COMPACT-JSON prompt.' });
  });

  it('refuses a prompts.json "compact" file that is missing or empty, naming prompts.json', async () => {
    await expect(
      loadCompactConfig(await configDir({ 'prompts.json': '{"compact": "nope.txt"}' })),
    ).rejects.toMatchObject({ code: 'E_PROMPT_FILE_MISSING', message: expect.stringContaining('prompts.json') });
    await expect(
      loadCompactConfig(await configDir({ 'prompts.json': '{"compact": "e.txt"}', 'e.txt': ' ' })),
    ).rejects.toMatchObject({ code: 'E_COMPACT_CONFIG', message: expect.stringContaining('prompts.json') });
  });
});
