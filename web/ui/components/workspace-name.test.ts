import { describe, expect, it } from 'vitest';
import { suggestWorkspaceName } from './workspace-name';

const en = (n: number) => `Workspace ${n}`;

describe('suggestWorkspaceName', () => {
  it('numbers after the workspaces there are', () => {
    expect(suggestWorkspaceName([], en)).toBe('Workspace 1');
    expect(suggestWorkspaceName(['Notes', 'Site'], en)).toBe('Workspace 3');
  });

  it('never suggests a name already taken, whatever its case or spaces', () => {
    expect(suggestWorkspaceName(['Notes', ' workspace 2 ', 'Workspace 3'], en)).toBe('Workspace 4');
    expect(suggestWorkspaceName(['工作区 1'], (n) => `工作区 ${n}`)).toBe('工作区 2');
  });
});
