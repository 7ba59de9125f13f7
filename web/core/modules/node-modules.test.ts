import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/fs/node';
import type { WorkspaceFs } from '../contracts/fs';
import type { ToolContext } from '../contracts/tools';
import { contextMessagesToAppend } from './context';
import { loadNodeModules } from './node-modules';

const WS = 'f29127b0-f512-4c6e-9e31-87d476d168ce';

describe('loadNodeModules (headless i)', () => {
  let base: string;
  let configDir: string;
  let dataDir: string;
  let fs: WorkspaceFs;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-node-modules-'));
    configDir = join(base, 'config');
    dataDir = join(base, 'data');
    await mkdir(join(base, 'project', '.agents', 'skills', 'pdf'), { recursive: true });
    await mkdir(configDir, { recursive: true });
    await writeFile(
      join(base, 'project', '.agents', 'skills', 'pdf', 'SKILL.md'),
      '---\nname: pdf\ndescription: PDF work.\n---\nBody.\n',
    );
    fs = await createNodeWorkspaceFs({ root: join(base, 'project'), access: 'read-write' });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const names = (tools: { schema: { name: string } }[]) => tools.map((t) => t.schema.name);

  it('without config files: standard profile, default prompt, web_fetch but no web_search, memory and skills in context', async () => {
    const modules = await loadNodeModules({ configDir, dataDir, fs, env: {} });
    expect(modules.selection).toEqual({ profile: 'standard', disabled: [] });
    expect(modules.systemPrompt).toBeUndefined();
    expect(names(modules.tools)).toEqual([
      'read',
      'write',
      'edit',
      'glob',
      'search',
      'view_image',
      'memory_get',
      'memory_set',
      'skill_load',
      'skill_read',
      'web_fetch',
    ]);
    const set = modules.tools.find((t) => t.schema.name === 'memory_set')!;
    await set.execute({ key: 'build', value: 'npm run build' }, { workspaceId: WS } as ToolContext);
    const state = await modules.contextState(WS);
    expect(state).toEqual({
      memory: { build: 'npm run build' },
      skills: [{ name: 'pdf', description: 'PDF work.', source: '.agents/skills/pdf' }],
    });
    expect(contextMessagesToAppend([{ role: 'system', content: 's' }], state)).toHaveLength(1);
  });

  it('applies plugins.json, bindings.json, web.json, skills.json and prompts.json from config_dir', async () => {
    await writeFile(join(configDir, 'plugins.json'), JSON.stringify({ profile: 'full', disabled: ['skills'] }));
    await writeFile(join(configDir, 'bindings.json'), JSON.stringify({ memory: { exec: ['/opt/memory-worker'] } }));
    await writeFile(
      join(configDir, 'web.json'),
      JSON.stringify({
        search: {
          url: 'https://api.example.com/s',
          params: { q: '{query}' },
          auth: { header: 'X-Key', secret: 'SEARCH_KEY' },
          results: { items: 'r', title: 't', url: 'u' },
        },
        fetch: { allow_private: false },
      }),
    );
    await mkdir(join(configDir, 'prompts'));
    await writeFile(join(configDir, 'prompts', 'system.txt'), 'Custom prompt for {{workspace}}.');
    await writeFile(join(configDir, 'prompts.json'), JSON.stringify({ system: 'prompts/system.txt' }));
    const modules = await loadNodeModules({ configDir, dataDir, fs, env: {} });
    expect(names(modules.tools)).toEqual([
      'read',
      'write',
      'edit',
      'glob',
      'search',
      'view_image',
      'web_fetch',
      'web_search',
    ]);
    expect(modules.systemPrompt).toBe('Custom prompt for {{workspace}}.');
    expect(await modules.contextState(WS)).toEqual({});
    expect(JSON.stringify(modules.tools.map((t) => t.schema))).not.toContain('SEARCH_KEY');
  });

  it('refuses invalid config files with the file and path in the message', async () => {
    await writeFile(join(configDir, 'plugins.json'), JSON.stringify({ profile: 'huge' }));
    await expect(loadNodeModules({ configDir, dataDir, fs })).rejects.toThrow(
      `At ${join(configDir, 'plugins.json')}.profile`,
    );
    await rm(join(configDir, 'plugins.json'));
    await writeFile(join(configDir, 'prompts.json'), JSON.stringify({ system: 'missing.txt' }));
    await expect(loadNodeModules({ configDir, dataDir, fs })).rejects.toMatchObject({ code: 'E_PROMPT_FILE_MISSING' });
    await writeFile(join(configDir, 'prompts.json'), JSON.stringify({ system: 'empty.txt' }));
    await writeFile(join(configDir, 'empty.txt'), '');
    await expect(loadNodeModules({ configDir, dataDir, fs })).rejects.toMatchObject({ code: 'E_PROMPT_EMPTY' });
    await rm(join(configDir, 'prompts.json'));
    await writeFile(join(configDir, 'bindings.json'), JSON.stringify({ edit: { exec: ['/x'] } }));
    await expect(loadNodeModules({ configDir, dataDir, fs })).rejects.toMatchObject({ code: 'E_BINDING_CORE' });
  });
});
