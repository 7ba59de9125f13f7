import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeError } from './errors';
import { examplesDir, tempDirs } from './fixtures/support';
import { loadManifest, parseManifest, publicManifest } from './manifest';

const tool = (over: Record<string, unknown> = {}) => ({
  name: 't',
  description: 'd',
  parameters: { type: 'object' },
  exec: ['node', 'x.mjs'],
  ...over,
});
const codeAndMessage = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (BridgeError.isInstance(error)) return `${error.code} ${error.message}`;
    throw error;
  }
  return 'no error';
};

describe('desktop manifest', () => {
  it('resolves bare names on PATH, relative programs against cwd, and cwd against the manifest folder', () => {
    const { root } = tempDirs();
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin', 'w.sh'), '#!/bin/sh\n');
    chmodSync(join(root, 'bin', 'w.sh'), 0o755);
    const m = parseManifest(
      { tools: [tool({ exec: ['./w.sh', '--flag'], cwd: 'bin' })], hooks: [{ events: ['*'], exec: ['node'] }] },
      root,
    );
    expect(m.tools[0]!.argv).toEqual([join(root, 'bin', 'w.sh'), '--flag']);
    expect(m.tools[0]!.cwd).toBe(join(root, 'bin'));
    expect(m.hooks[0]!.argv[0]).toMatch(/\/node$/);
    expect(m.hooks[0]!.cwd).toBe(root);
  });

  it.each([
    ['a bad tool name', { tools: [tool({ name: 'has space' })] }, 'tools.0.name'],
    ['a 65-character name', { tools: [tool({ name: 'x'.repeat(65) })] }, 'tools.0.name'],
    ['a duplicate name', { tools: [tool(), tool()] }, 'tools.1.name'],
    ['a reserved name', { tools: [tool({ name: 'web_fetch' })] }, 'tools.0.name'],
    ['a non-object schema', { tools: [tool({ parameters: { type: 'array' } })] }, 'tools.0.parameters'],
    [
      'properties as an array',
      { tools: [tool({ parameters: { type: 'object', properties: [] } })] },
      'tools.0.parameters.properties',
    ],
    [
      'a property that is not a schema',
      { tools: [tool({ parameters: { type: 'object', properties: { text: 'string' } } })] },
      'tools.0.parameters.properties.text',
    ],
    [
      'required as a string',
      { tools: [tool({ parameters: { type: 'object', required: 'text' } })] },
      'tools.0.parameters.required',
    ],
    ['a shell line instead of argv', { tools: [tool({ exec: 'node x.mjs' })] }, 'tools.0.exec'],
    ['a missing cwd', { tools: [tool({ cwd: 'nope' })] }, 'tools.0.cwd'],
    ['a program not on PATH', { tools: [tool({ exec: ['no-such-program-xyz'] })] }, 'tools.0.exec.0'],
    ['an unknown field', { tools: [tool({ shell: true })] }, 'tools.0.shell'],
    ['hooks without events', { hooks: [{ events: [], exec: ['node'] }] }, 'hooks.0.events'],
    ['an unknown top-level key', { plugins: [] }, 'manifest.plugins'],
  ])('refuses %s with the path in the message', (_why, raw, at) => {
    const { root } = tempDirs();
    expect(codeAndMessage(() => parseManifest(raw, root))).toContain(`E_MANIFEST_INVALID At ${at}:`);
  });

  it('accepts an object schema with properties, boolean sub-schemas and required names', () => {
    const { root } = tempDirs();
    const parameters = { type: 'object', properties: { text: { type: 'string' }, any: true }, required: ['text'] };
    expect(parseManifest({ tools: [tool({ parameters })] }, root).tools[0]!.tool.parameters).toEqual(parameters);
  });

  it('keeps exec and cwd out of the public view', () => {
    const m = loadManifest(join(examplesDir, 'desktop.json'));
    const view = JSON.stringify(publicManifest(m));
    expect(view).not.toMatch(/exec|cwd|node-worker|word_count\.py/);
    expect(m.provider?.argv[1]).toBe('node-worker.mjs');
  });

  it('names the file of an invalid entry when the bridge picked the manifest itself (not --manifest)', () => {
    const { root } = tempDirs();
    const file = join(root, 'desktop.json');
    writeFileSync(file, JSON.stringify({ tools: [tool({ name: 'web_fetch' })] }));
    const entry = 'E_MANIFEST_INVALID At tools.0.name: "web_fetch" is reserved by the bridge. Rename the tool.';
    expect(codeAndMessage(() => loadManifest(file, 'that file'))).toBe(`${entry} Fix it in ${file}.`);
    expect(codeAndMessage(() => loadManifest(file))).toBe(entry);
  });

  it('names the file when it is not JSON', () => {
    const { root } = tempDirs();
    const file = join(root, 'm.json');
    writeFileSync(file, '{oops');
    expect(codeAndMessage(() => loadManifest(file))).toContain(file);
  });
});
