// `i --help` names every file headless i reads from the config folder (issue 20: "i --help lists every config file
// it reads"). The list is taken from the source, so a new config file that --help does not mention fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from './args';

const core = resolve(__dirname, '..');

/** `<name>.json` joined to the config folder anywhere in web/core's non-test sources. */
function configFilesInSource(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(/\b(?:configDir|config_dir)\b[^;\n]*?'([a-z_-]+\.json)'/g))
          found.add(m[1]!);
      }
    }
  };
  walk(core);
  return found;
}

describe('i --help', () => {
  it('names every file of the config folder that i reads, in its "Files i reads" list', () => {
    const files = configFilesInSource();
    // The scan itself must see the well-known ones, or it proves nothing.
    for (const known of [
      'config.json',
      'approval.json',
      'plugins.json',
      'prompts.json',
      'cache.json',
      'compact.json',
      'bindings.json',
      'skills.json',
      'web.json',
    ])
      expect(files).toContain(known);
    const list = USAGE.slice(USAGE.indexOf('Files i reads'));
    expect(list.length).toBeLessThan(USAGE.length);
    for (const f of files)
      expect(list, f).toContain(f === 'config.json' ? '$I_CONFIG_DIR/config.json' : `$I_CONFIG_DIR/${f}`);
    for (const other of ['AGENTS.md', 'workspaces.json', '--session']) expect(list).toContain(other);
  });
});
