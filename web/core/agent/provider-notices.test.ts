// What a provider adapter says about a request (ModelResult.notices: N_REPLAY_NOT_LOSSLESS after a protocol switch)
// reaches the person as a warning event, once per turn however many requests repeat it.
import { describe, expect, it } from 'vitest';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { readTool } from '../tools/builtin';

const notice = {
  code: 'N_REPLAY_NOT_LOSSLESS',
  message: 'Earlier answers came from another protocol: their thinking is not replayed.',
};

describe('provider notices in a turn', () => {
  it('are said once as warnings, in the step that first had them', async () => {
    const run = await runScripted(
      [
        { tool_calls: [call('r1', 'read', { path: 'missing.txt' })], notices: [notice] },
        { content: 'done', notices: [notice] },
      ],
      { tools: [readTool()] },
    );
    const warnings = run.events.filter((e) => e.type === 'warning');
    expect(warnings).toEqual([{ type: 'warning', step: 1, error: notice }]);
  });
});
