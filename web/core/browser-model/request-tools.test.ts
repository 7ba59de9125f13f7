import { describe, expect, it } from 'vitest';
import { jsonRequestHistory } from '../agent/json-actions';
import { coreFileTools } from '../tools/builtin';
import { toolsOfJsonRequest } from './request-tools';

describe('the tools a JSON-protocol request shows', () => {
  it('are read back, schemas intact, from the instructions message the loop puts in the request', () => {
    const tools = coreFileTools().map((t) => t.schema);
    const request = jsonRequestHistory(
      [
        { role: 'system', content: 'You are i.' },
        { role: 'user', content: 'hi' },
      ],
      tools,
    );
    expect(toolsOfJsonRequest(request)).toEqual(tools);
  });

  it('are an empty list when the instructions say no tools are available, and null for a native request', () => {
    expect(toolsOfJsonRequest(jsonRequestHistory([{ role: 'user', content: 'hi' }], []))).toEqual([]);
    expect(
      toolsOfJsonRequest([
        { role: 'system', content: 'You are i.' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBeNull();
  });
});
