// TurnInput.keepFailedPrompt (the app): a turn that fails before any checkpoint held its prompt saves the prompt with
// the error on it, a history that stays valid to send; without it (headless `i`) the session stays as it was.
import { describe, expect, it } from 'vitest';
import { isConsistent } from '../sessions';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { readTool } from './__fixtures__/tools';

const refused = { code: 'E_PROVIDER_AUTH', message: 'The provider refused the key (401: bad key).' };

describe('a failed turn and its prompt', () => {
  it('saves a first prompt nothing answered with the error on it, once, in a history that can be sent', async () => {
    const run = await runScripted([{ error: refused }], { content: 'Say hello', keepFailedPrompt: true });
    expect(run.result.stopReason).toBe('error');
    expect(run.saves).toHaveLength(1);
    const saved = run.saves[0]!;
    expect(saved.map((m) => m.role)).toEqual(['system', 'user']);
    expect(saved[1]).toMatchObject({ role: 'user', content: 'Say hello', _failed: refused });
    expect(isConsistent(saved)).toBe(true);
    expect(run.events.filter((e) => e.type === 'checkpoint')).toHaveLength(1);
  });

  it('saves nothing when the caller keeps the session as it was (headless: running the command again retries)', async () => {
    const run = await runScripted([{ error: refused }], { content: 'Say hello' });
    expect(run.result.stopReason).toBe('error');
    expect(run.saves).toEqual([]);
  });

  it('does not mark a prompt a checkpoint already held (a later step failed), nor a stopped turn', async () => {
    const history = [
      { role: 'system' as const, content: 'sys' },
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: 'ok' },
    ];
    const later = await runScripted([{ tool_calls: [call('c1', 'read', { path: 'a' })] }, { error: refused }], {
      history,
      content: 'read a',
      tools: [readTool()],
      files: { a: 'A' },
      keepFailedPrompt: true,
    });
    expect(later.result.stopReason).toBe('error');
    expect(later.saves).toHaveLength(1); // the tool step's checkpoint, which holds the prompt
    expect(later.saves[0]!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(later.saves)).not.toContain('_failed');

    const ac = new AbortController();
    const stopped = await runScripted([{ hang: true, content: 'never' }], {
      signal: ac.signal,
      keepFailedPrompt: true,
      onEvent: (e) => e.type === 'step-start' && setTimeout(() => ac.abort(), 5),
    });
    expect(stopped.result.stopReason).toBe('aborted');
    expect(stopped.saves.at(-1)!.at(-1)).toMatchObject({ role: 'user', content: 'go' });
    expect(JSON.stringify(stopped.saves)).not.toContain('_failed');
  });
});
