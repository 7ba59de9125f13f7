import { describe, expect, it } from 'vitest';
import { PUBLIC_TOOL_NAME, publicToolName } from './tool-names';

describe('publicToolName', () => {
  it('joins the id (dots as underscores) and the tool name with "--"', () => {
    expect(publicToolName('example.word-count', 'count_words')).toBe('example_word-count--count_words');
  });

  it('keeps names that differ only where the mapping could be ambiguous apart', () => {
    const names = [
      publicToolName('a.b', 'c'),
      publicToolName('a-b', 'c'),
      publicToolName('a', 'b_c'),
      publicToolName('a..b', 'c'),
      publicToolName('a.', 'b__c'),
      publicToolName('a-', 'c'),
    ];
    expect(new Set(names).size).toBe(names.length);
  });

  it('shortens long ids with a hash, stays valid for every provider and is stable', () => {
    const id = `a${'b.c-'.repeat(15)}xyz`; // 64 bytes
    const tool = `t${'o'.repeat(31)}`; // 32 bytes
    const name = publicToolName(id, tool);
    expect(name).toHaveLength(64);
    expect(name).toMatch(PUBLIC_TOOL_NAME);
    expect(name.endsWith(`--${tool}`)).toBe(true);
    expect(name).toBe(publicToolName(id, tool));
    expect(publicToolName(`${id.slice(0, -1)}w`, tool)).not.toBe(name);
  });

  it('produces valid, unique names across many long and short ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const id = `p${i}.${'x'.repeat(i % 64)}`.slice(0, 64);
      for (const tool of ['run', `t_${'y'.repeat(i % 30)}`]) {
        const name = publicToolName(id, tool);
        expect(name).toMatch(PUBLIC_TOOL_NAME);
        expect(seen.has(name)).toBe(false);
        seen.add(name);
      }
    }
  });
});
