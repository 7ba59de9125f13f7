import { describe, expect, it } from 'vitest';
import { decideImport, planImport, type PackageFacts } from './import-plan';

const facts = (
  version: string,
  sha: string,
  permissions: PackageFacts['permissions'] = { workspace: 'read', storage: true },
): PackageFacts => ({
  id: 'example.notes',
  name: 'Notes',
  version,
  sha256: sha.repeat(64),
  permissions,
});

describe('deciding what an import would do', () => {
  it('installs a new id, says the same code and version are already installed, and asks before any other change', () => {
    expect(decideImport(undefined, facts('1.0.0', 'a'))).toBe('install');
    expect(decideImport(facts('1.0.0', 'a'), facts('1.0.0', 'a'))).toBe('unchanged');
    expect(decideImport(facts('1.0.0', 'a'), facts('1.1.0', 'b'))).toBe('update');
    expect(decideImport(facts('1.0.0', 'a'), facts('1.0.0', 'b'))).toBe('update');
    // The same code under another version still changes the stored manifest (permissions, tools): ask.
    expect(decideImport(facts('1.0.0', 'a'), facts('1.0.1', 'a'))).toBe('update');
  });

  it('names the version change of an update, compared numerically', () => {
    expect(planImport(facts('1.9.0', 'a'), facts('1.10.0', 'b')).versionChange).toBe('upgrade');
    expect(planImport(facts('2.0.0', 'a'), facts('1.99.99', 'b')).versionChange).toBe('downgrade');
    expect(planImport(facts('1.0.0', 'a'), facts('1.0.0', 'b')).versionChange).toBe('same-version');
    expect(planImport(facts('1.0.0', 'a'), facts('1.0.0', 'a')).versionChange).toBeUndefined();
    expect(planImport(undefined, facts('1.0.0', 'a'))).toEqual({
      decision: 'install',
      incoming: facts('1.0.0', 'a'),
      widensPermissions: false,
    });
  });

  it('says when the update asks for more access (the registry then switches it off where it was on)', () => {
    const read = { workspace: 'read', storage: false } as const;
    expect(
      planImport(facts('1.0.0', 'a', read), facts('1.1.0', 'b', { workspace: 'read-write', storage: false }))
        .widensPermissions,
    ).toBe(true);
    expect(
      planImport(facts('1.0.0', 'a', read), facts('1.1.0', 'b', { workspace: 'read', storage: true }))
        .widensPermissions,
    ).toBe(true);
    expect(
      planImport(facts('1.0.0', 'a', { workspace: 'read-write', storage: true }), facts('1.1.0', 'b', read))
        .widensPermissions,
    ).toBe(false);
  });
});
