import { describe, expect, it } from 'vitest';
import { normalizeWorkspacePath } from './path-policy';
import { checkWriteTarget, classifyWritePath, shownPathArgument, shownWritePath, type AskReason } from './write-policy';
import { GIT_DETOURS, I_STATE_DETOURS } from './workspace-fs-suite';

const codeOf = (run: () => unknown): string => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
};

describe('workspace write policy', () => {
  it('refuses every dot-padded, mixed, case-variant, 8.3 and ".." detour into .git with E_PATH_PROTECTED', () => {
    for (const raw of GIT_DETOURS)
      expect([raw, codeOf(() => checkWriteTarget(raw))]).toEqual([raw, 'E_PATH_PROTECTED']);
  });

  it('lets the same paths through when the workspace allows writes inside .git', () => {
    for (const raw of GIT_DETOURS)
      expect(checkWriteTarget(raw, { allowGitWrites: true }).path.path).toBe(normalizeWorkspacePath(raw).path);
  });

  it('refuses every detour into .i (session logs, checkpoints) with E_PATH_PROTECTED, even where .git writes are allowed', () => {
    for (const policy of [{ allowGitWrites: false }, { allowGitWrites: true }]) {
      for (const raw of I_STATE_DETOURS)
        expect([raw, codeOf(() => checkWriteTarget(raw, policy))]).toEqual([raw, 'E_PATH_PROTECTED']);
    }
    expect(classifyWritePath(normalizeWorkspacePath('.I/sessions/w/checkpoints/records.ndjson'))).toEqual({
      kind: 'i-state',
    });
    for (const raw of ['.in', '.ignore', 'i/x', 'src/.i.md', '.idea.md', 'IDEA~1.MD'])
      expect([raw, codeOf(() => checkWriteTarget(raw))]).toEqual([raw, 'accepted']);
  });

  it('says in the .i refusal what it protects and where to write instead, and names no switch that unlocks it', () => {
    let message = '';
    try {
      checkWriteTarget('notes.md/../.i/sessions/work/checkpoints/records.ndjson', { allowGitWrites: true });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('undo history');
    expect(message).toContain('i --changes');
    expect(message).toContain('No setting or approval mode allows it');
    expect(message).toContain('→ .i/sessions/work/checkpoints/records.ndjson');
    expect(message).not.toContain('--allow-git-writes');
  });

  it('refuses forms the path policy cannot accept before judging them (trailing dot, stream, backslash)', () => {
    expect(codeOf(() => checkWriteTarget('.git./config'))).toBe('E_PATH_INVALID');
    expect(codeOf(() => checkWriteTarget('.git::$INDEX_ALLOCATION/config'))).toBe('E_PATH_INVALID');
    expect(codeOf(() => checkWriteTarget('.git\\config'))).toBe('E_PATH_BACKSLASH');
  });

  it('says in the refusal how to allow writes inside .git for this workspace', () => {
    let message = '';
    try {
      checkWriteTarget('notes.md/../.git/config');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('Allow the agent to write inside .git');
    expect(message).toContain('--allow-git-writes');
    expect(message).toContain('→ .git/config');
  });

  it('does not protect names that only resemble .git', () => {
    for (const raw of [
      '.gitignore',
      'git/config',
      'src/.gitkeep',
      'docs/.git-notes.md',
      '.github/CODEOWNERS',
      'a.git',
      '.vscode',
    ]) {
      expect([raw, codeOf(() => checkWriteTarget(raw))]).toEqual([raw, 'accepted']);
      expect(checkWriteTarget(raw).ask).toBeUndefined();
    }
  });

  it('marks the files that make tools run code on open as always-ask, with their class', () => {
    const cases: Array<[string, AskReason]> = [
      ['.vscode/settings.json', 'vscode'],
      ['.VSCode/tasks.json', 'vscode'],
      ['VSCODE~1/tasks.json', 'vscode'],
      ['packages/app/.vscode/launch.json', 'vscode'],
      ['.idea/workspace.xml', 'idea'],
      ['.devcontainer/devcontainer.json', 'devcontainer'],
      ['.devcontainer.json', 'devcontainer'],
      ['.envrc', 'envrc'],
      ['.husky/pre-commit', 'git-hooks'],
      ['.githooks/pre-push', 'git-hooks'],
      ['.pre-commit-config.yaml', 'git-hooks'],
      ['.github/workflows/ci.yml', 'ci'],
      ['.GitHub/Workflows/release.yml', 'ci'],
      ['.gitattributes', 'git-files'],
      ['sub/.gitmodules', 'git-files'],
      ['.npmrc', 'package-manager'],
      ['x/../.yarnrc.yml', 'package-manager'],
    ];
    for (const [raw, reason] of cases) expect([raw, checkWriteTarget(raw).ask]).toEqual([raw, reason]);
    expect(classifyWritePath(normalizeWorkspacePath('.github/workflows'))).toEqual({ kind: 'plain' });
  });

  it('refuses writing a name with a bidi, zero-width or C1 character and names the code point', () => {
    for (const [raw, label] of [
      ['.g\u200cit/config', 'U+200C'],
      ['report\u202Etxt.exe', 'U+202E'],
      ['a/\uFEFFb.md', 'U+FEFF'],
      ['c1\u009b.txt', 'U+009B'],
      ['x\u2066y', 'U+2066'],
    ] as const) {
      let error: { code?: string; message?: string } = {};
      try {
        checkWriteTarget(raw, { allowGitWrites: true });
      } catch (e) {
        error = e as typeof error;
      }
      expect([raw, error.code]).toEqual([raw, 'E_PATH_INVISIBLE_CHAR']);
      expect(error.message).toContain(label);
    }
  });

  it('shows the normalised path, and "raw → normalised" bounded when the writer sent another form', () => {
    expect(shownWritePath('src/a.ts', 'src/a.ts')).toBe('src/a.ts');
    const raw = `notes.md/${'./'.repeat(60)}../.git/config`;
    const shown = shownWritePath(raw, '.git/config');
    expect(shown.endsWith(' → .git/config')).toBe(true);
    expect(shown.startsWith('"notes.md/./')).toBe(true);
    expect(shown).toContain(`(${raw.length} characters)`);
    expect(shown.length).toBeLessThan(120);
  });
});

describe('shownPathArgument', () => {
  it('shows a path argument normalised, and a refused one quoted and bounded', () => {
    expect(shownPathArgument('src/a.ts')).toBe('src/a.ts');
    // A bidi override in a name a tool reads is shown escaped, never applied (it would show 'reportexe.pdf').
    expect(shownPathArgument('docs/report\u202Efdp.exe')).toBe('docs/report\\u202efdp.exe');
    expect(shownPathArgument('./docs/a\u200Bb')).toBe('"./docs/a\\u200bb" → docs/a\\u200bb');
    expect(shownPathArgument('notes.md/./././../.git/config')).toBe('"notes.md/./././../.git/config" → .git/config');
    expect(shownPathArgument('./')).toBe('"./" → .');
    const escape = `../${'x'.repeat(300)}`;
    expect(shownPathArgument(escape)).toBe(`"../${'x'.repeat(57)}…" (${escape.length} characters)`);
  });
});
