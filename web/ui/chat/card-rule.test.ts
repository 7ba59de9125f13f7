// The rule an approval card offers, and the card rules that cover the rest of a running turn.
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../core/page';
import { cardRule, cardRuleMemory } from './card-rule';

const request = (name: string, path: string | undefined, extra: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId: 'c1',
  name,
  arguments: { path },
  external: false,
  prepared: path === undefined ? undefined : { summary: path, target: { path } },
  ...extra,
});

describe('the rule an approval card offers', () => {
  it('allows the tool in the target file’s folder, with glob characters of the folder matched literally', () => {
    expect(cardRule(request('edit', 'src/app/main.ts'))).toEqual({
      rule: { decision: 'allow', tool: 'edit', path: 'src/app/**' },
      where: { folder: 'src/app/' },
    });
    expect(cardRule(request('write', 'docs/[draft]*/a.md'))?.rule.path).toBe('docs/\\[draft\\]\\*/**');
    expect(cardRule(request('edit', 'package.json'))).toEqual({
      rule: { decision: 'allow', tool: 'edit', path: 'package.json' },
      where: { path: 'package.json' },
    });
  });

  it('offers nothing for a file that always asks, an external tool or a tool without a target', () => {
    expect(
      cardRule(
        request('edit', '.vscode/settings.json', {
          prepared: {
            summary: 'x',
            target: { path: '.vscode/settings.json' },
            alwaysAsk: { reason: 'vscode', text: 'VS Code runs it' },
          },
        }),
      ),
    ).toBeNull();
    expect(cardRule(request('edit', 'src/a.ts', { external: true }))).toBeNull();
    expect(cardRule(request('search', undefined))).toBeNull();
  });

  it('covers later calls in that folder once taken, but not other folders, other tools or files that always ask', () => {
    const memory = cardRuleMemory();
    expect(memory.allows(request('edit', 'src/app/b.ts'))).toBe(false);
    memory.add(cardRule(request('edit', 'src/app/main.ts'))!.rule);
    expect(memory.allows(request('edit', 'src/app/deep/b.ts'))).toBe(true);
    expect(memory.allows(request('edit', 'src/other.ts'))).toBe(false);
    expect(memory.allows(request('write', 'src/app/b.ts'))).toBe(false);
    expect(
      memory.allows(
        request('edit', 'src/app/.envrc', {
          prepared: {
            summary: 'x',
            target: { path: 'src/app/.envrc' },
            alwaysAsk: { reason: 'envrc', text: 'direnv runs it' },
          },
        }),
      ),
    ).toBe(false);
  });
});
