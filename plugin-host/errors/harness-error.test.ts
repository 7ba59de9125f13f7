import { describe, expect, it } from 'vitest';
import { HarnessError, toErrorData } from './harness-error';

describe('HarnessError', () => {
  it('is recognised by its marker, not by instanceof, so it survives a structured clone boundary', () => {
    const err = new HarnessError('E_PATH_ESCAPE', 'The path leaves the workspace. Use a path inside it.', {
      path: '../x',
    });
    const plain = { ...err, code: err.code, message: err.message };
    expect(HarnessError.isInstance(err)).toBe(true);
    expect(HarnessError.isInstance(new Error('x'))).toBe(false);
    expect(HarnessError.isInstance(structuredClone(plain))).toBe(false);
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      code: 'E_PATH_ESCAPE',
      message: 'The path leaves the workspace. Use a path inside it.',
      data: { path: '../x' },
    });
  });

  it('converts foreign throwables into the plain boundary shape', () => {
    expect(toErrorData(new TypeError('boom'))).toEqual({ code: 'E_INTERNAL', message: 'boom' });
    expect(toErrorData('text', 'E_X')).toEqual({ code: 'E_X', message: 'text' });
    expect(toErrorData({ code: 'E_Y', message: 'plain' })).toEqual({ code: 'E_Y', message: 'plain' });
  });
});
