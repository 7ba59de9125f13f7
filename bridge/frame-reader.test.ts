import { describe, expect, it } from 'vitest';
import { FrameReader } from './frame-reader';

const collect = (max: number) => {
  const lines: string[] = [];
  const overflows: number[] = [];
  const reader = new FrameReader(max, { line: (l) => lines.push(l.toString()), overflow: (n) => overflows.push(n) });
  return { reader, lines, overflows };
};

describe('byte-counted frame reader', () => {
  it('joins frames split across chunks and splits several frames in one chunk', () => {
    const { reader, lines } = collect(100);
    reader.push(Buffer.from('{"a":'));
    reader.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    expect(reader.pendingBytes).toBe(4);
    reader.push(Buffer.from(':3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(reader.pendingBytes).toBe(0);
  });

  it('accepts a frame of exactly the cap (newline included) and refuses one byte more', () => {
    const ok = collect(10);
    ok.reader.push(Buffer.from('123456789\n'));
    expect(ok.lines).toEqual(['123456789']);
    const over = collect(10);
    over.reader.push(Buffer.from('1234567890\n'));
    expect(over.lines).toEqual([]);
    expect(over.overflows).toEqual([11]);
  });

  it('fails the moment an unfinished line reaches the cap, without waiting for a newline, and drops its bytes', () => {
    const { reader, lines, overflows } = collect(10);
    reader.push(Buffer.from('12345'));
    expect(overflows).toEqual([]);
    reader.push(Buffer.from('67890'));
    expect(overflows).toEqual([10]);
    expect(reader.pendingBytes).toBe(0);
    reader.push(Buffer.from('ok\n')); // ignored once stopped
    expect(lines).toEqual([]);
  });
});
