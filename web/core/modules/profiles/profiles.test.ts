import { describe, expect, it } from 'vitest';
import { builtinTools } from '../builtin-tools';
import { createInMemoryMemoryStore } from '../memory';
import type { WebFetchBackend } from '../web';
import {
  BUILTIN_TOOL_NAMES,
  checkExternalToolName,
  enabledModules,
  planModules,
  validateBindings,
  validateProfileSelection,
} from './index';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('profiles', () => {
  it('standard is full without the Responses transformation, minus the disabled modules', () => {
    expect(enabledModules(validateProfileSelection({ profile: 'full' }))).toEqual([
      'approval',
      'budget',
      'compact',
      'cache',
      'responses',
      'responses-budget',
      'responses-compact',
      'memory',
      'search',
      'skills',
      'web',
    ]);
    expect(enabledModules(validateProfileSelection({ profile: 'standard', disabled: ['web', 'memory'] }))).toEqual([
      'approval',
      'budget',
      'compact',
      'cache',
      'search',
      'skills',
    ]);
    expect(validateProfileSelection({})).toEqual({ profile: 'standard', disabled: [] });
  });

  it('refuses unknown profiles, modules, keys and duplicates with the path in the message', () => {
    expect(() => validateProfileSelection({ profile: 'max' })).toThrow(
      'At plugins.json.profile: expected "standard" or "full", got "max".',
    );
    expect(() => validateProfileSelection({ disabled: ['web', 'shell'] })).toThrow(
      /At plugins\.json\.disabled\.1: "shell" is not a module/,
    );
    expect(codeOf(() => validateProfileSelection({ disabled: ['web', 'web'] }))).toBe('E_PROFILE_INVALID');
    expect(codeOf(() => validateProfileSelection({ profile: 'full', extra: 1 }))).toBe('E_PROFILE_INVALID');
    expect(codeOf(() => validateProfileSelection(['full']))).toBe('E_PROFILE_INVALID');
  });
});

describe('bindings', () => {
  it('binds a module to a worker with no fallback and leaves the others built in', () => {
    const bindings = validateBindings({
      compact: { exec: ['/opt/w', 'compact'], cwd: '/etc/i' },
      provider: { exec: ['prov'] },
    });
    const plan = planModules(validateProfileSelection({ profile: 'standard', disabled: ['web'] }), bindings);
    expect(plan.find((p) => p.module === 'compact')).toEqual({
      module: 'compact',
      runs: 'bridge',
      binding: { exec: ['/opt/w', 'compact'], cwd: '/etc/i' },
      fallback: false,
    });
    expect(plan.find((p) => p.module === 'budget')).toEqual({ module: 'budget', runs: 'builtin' });
    expect(plan.some((p) => p.module === 'web')).toBe(false);
  });

  it('never lets a binding replace a core tool, and validates argv and cwd', () => {
    for (const core of ['read', 'write', 'edit', 'glob', 'view_image']) {
      expect(
        codeOf(() => validateBindings({ [core]: { exec: ['/x'] } })),
        core,
      ).toBe('E_BINDING_CORE');
    }
    expect(codeOf(() => validateBindings({ shell: { exec: ['/x'] } }))).toBe('E_BINDING_INVALID');
    expect(codeOf(() => validateBindings({ compact: { exec: [] } }))).toBe('E_BINDING_INVALID');
    expect(codeOf(() => validateBindings({ compact: { exec: ['/x'], cwd: 'relative' } }))).toBe('E_BINDING_INVALID');
    expect(codeOf(() => validateBindings({ compact: { exec: ['/x'], cwd: '/a/../b' } }))).toBe('E_BINDING_INVALID');
    expect(codeOf(() => validateBindings({ compact: { exec: ['/x'], env: {} } }))).toBe('E_BINDING_INVALID');
    expect(validateBindings({ search: { exec: ['/x'] } })).toEqual({ search: { exec: ['/x'] } });
  });

  it('refuses external tools named like any built-in tool, whatever the profile', () => {
    for (const name of BUILTIN_TOOL_NAMES)
      expect(
        codeOf(() => checkExternalToolName(name)),
        name,
      ).toBe('E_TOOL_SHADOWS_BUILTIN');
    expect(codeOf(() => checkExternalToolName('Read'))).toBe('E_TOOL_SHADOWS_BUILTIN');
    expect(codeOf(() => checkExternalToolName('my_read'))).toBe('ok');
  });
});

describe('builtinTools', () => {
  const names = (tools: { schema: { name: string } }[]) => tools.map((t) => t.schema.name);
  const backend: WebFetchBackend = { name: 'test', fetch: async () => ({ output: 'x' }) };
  const memory = createInMemoryMemoryStore();
  const skills = async () => ({ skills: [], problems: [] });

  it('always has the core file tools and adds module tools only when enabled and available', () => {
    expect(names(builtinTools())).toEqual(['read', 'write', 'edit', 'glob', 'search', 'view_image']);
    expect(names(builtinTools({ memory, skills, webFetch: backend }))).toEqual([
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
    const disabled = builtinTools({
      selection: { profile: 'full', disabled: ['memory', 'skills', 'web', 'search'] },
      memory,
      skills,
      webFetch: backend,
    });
    expect(names(disabled)).toEqual(['read', 'write', 'edit', 'glob', 'search', 'view_image']);
  });

  it('offers web_fetch only when a backend exists, and drops a bound module without a built-in fallback', () => {
    expect(names(builtinTools({ memory })).includes('web_fetch')).toBe(false);
    const bound = builtinTools({ memory, bindings: validateBindings({ memory: { exec: ['/w'] } }) });
    expect(names(bound).includes('memory_get')).toBe(false);
    expect(names(bound).includes('read')).toBe(true);
  });

  it('marks module tools as external tools that ask', () => {
    const modules = builtinTools({ memory, skills, webFetch: backend }).slice(6);
    expect(modules.every((t) => t.approval === 'ask' && t.external)).toBe(true);
  });
});
