import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors';
import { AbortCode } from './codes';
import { driverMain } from './driver';
import { FrameMediator } from './mediator';

const call = (id: unknown, op = 'kv.get', args: unknown = { key: 'k' }) => ({
  type: 'host_call',
  request: { id, op, args },
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return HarnessError.isInstance(e) ? e.code : 'not a HarnessError';
  }
};

describe('FrameMediator', () => {
  it('accepts ids 1, 2, 3 and refuses gaps, repeats and decreases', () => {
    const m = new FrameMediator();
    expect(codeOf(() => m.accept(call(1)))).toBe('ok');
    expect(codeOf(() => m.accept(call(2)))).toBe('ok');
    expect(codeOf(() => new FrameMediator().accept(call(2)))).toBe(AbortCode.HOST_ID);
    expect(codeOf(() => m.accept(call(2)))).toBe(AbortCode.HOST_ID);
    expect(codeOf(() => m.accept(call(1)))).toBe(AbortCode.HOST_ID);
    expect(codeOf(() => m.accept(call('3')))).toBe(AbortCode.HOST_ID);
    expect(codeOf(() => m.accept(call(3.0)))).toBe('ok');
    expect(m.hostCalls).toBe(3);
  });

  it('refuses any frame after done or error (E_RUN_AFTER_DONE)', () => {
    const m = new FrameMediator();
    m.accept({ type: 'done', output: '' });
    expect(codeOf(() => m.accept(call(1)))).toBe(AbortCode.AFTER_DONE);
    const e = new FrameMediator();
    e.accept({ type: 'error', error: 'x' });
    expect(codeOf(() => e.accept({ type: 'done', output: '' }))).toBe(AbortCode.AFTER_DONE);
  });

  it('takes exactly the fields of each operation', () => {
    const m = () => new FrameMediator();
    expect(codeOf(() => m().accept(call(1, 'kv.put', { key: 'k', value: null })))).toBe('ok');
    expect(codeOf(() => m().accept(call(1, 'kv.put', { key: 'k' })))).toBe(AbortCode.BAD_ARGS);
    expect(codeOf(() => m().accept(call(1, 'fs.list', { path: '', recursive: true })))).toBe(AbortCode.BAD_ARGS);
    expect(codeOf(() => m().accept(call(1, 'fs.read', ['path'])))).toBe(AbortCode.BAD_ARGS);
    expect(codeOf(() => m().accept(call(1, 'toString', {})))).toBe(AbortCode.UNKNOWN_OP);
    expect(codeOf(() => m().accept(call(1, 'kv.get', { kye: 'k' })))).toBe(AbortCode.BAD_ARGS);
    expect(codeOf(() => m().accept(call(1, 'kv.get', JSON.parse('{"key":"k","__proto__":"x"}'))))).toBe(
      AbortCode.BAD_ARGS,
    );
    expect(codeOf(() => m().accept(JSON.parse('{"type":"done","output":"x","__proto__":{}}')))).toBe(
      AbortCode.BAD_FRAME,
    );
    expect(codeOf(() => m().accept({ type: 'host_call', request: { id: 1, op: 'kv.get', arg: { key: 'k' } } }))).toBe(
      AbortCode.BAD_FRAME,
    );
    expect(
      codeOf(() => m().accept({ type: 'host_call', request: { id: 1, op: 'kv.get', args: { key: 'k' }, extra: 1 } })),
    ).toBe(AbortCode.BAD_FRAME);
  });

  it('names at most three unexpected fields, each quoted briefly, and counts the rest', () => {
    const frame: Record<string, unknown> = { type: 'done', output: 'x' };
    for (let i = 0; i < 200_000; i++) frame[`${'k'.repeat(100)}${i}`] = 1;
    const args: Record<string, unknown> = { key: 'k', [`\u202e${'a'.repeat(3 * 1024 * 1024)}`]: 1 };
    for (const [accept, code] of [
      [() => new FrameMediator().accept(frame), AbortCode.BAD_FRAME],
      [() => new FrameMediator().accept(call(1, 'kv.get', args)), AbortCode.BAD_ARGS],
    ] as const) {
      const e = (() => {
        try {
          accept();
        } catch (error) {
          return error as HarnessError;
        }
        throw new Error('accepted');
      })();
      expect(e.code).toBe(code);
      expect(JSON.stringify({ message: e.message, data: e.data }).length).toBeLessThan(1024);
      expect(e.message).not.toContain('\u202e');
      expect(e.data).toMatchObject({ extraCount: code === AbortCode.BAD_FRAME ? 200_000 : 1 });
    }
  });

  it('limits the final text to 1 MiB of UTF-8', () => {
    const m = (text: string) => () => new FrameMediator().accept({ type: 'done', output: text });
    expect(codeOf(m('é'.repeat(512 * 1024)))).toBe('ok');
    expect(codeOf(m('é'.repeat(512 * 1024) + 'x'))).toBe(AbortCode.OUTPUT_TOO_LARGE);
  });
});

describe('driverMain', () => {
  it('uses exactly the abort codes of codes.ts (it is self-contained and cannot import them)', () => {
    const used = new Set(driverMain.toString().match(/E_RUN_[A-Z_0-9]+/g));
    const known = new Set<string>(Object.values(AbortCode));
    expect(used.size).toBeGreaterThan(5);
    for (const code of used) expect(known.has(code)).toBe(true);
  });
});
