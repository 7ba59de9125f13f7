import { describe, expect, it } from 'vitest';
import { EventStream } from './event-stream';

describe('EventStream', () => {
  it('delivers events pushed before and after the consumer starts, in order, then the result', async () => {
    const s = new EventStream<number, string>();
    s.push(1);
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const e of s) seen.push(e);
    })();
    s.push(2);
    await Promise.resolve();
    s.push(3);
    s.end('ok');
    s.push(4);
    await consumer;
    expect(seen).toEqual([1, 2, 3]);
    await expect(s.result()).resolves.toBe('ok');
  });

  it('keeps the first end result', async () => {
    const s = new EventStream<number, string>();
    s.end('first');
    s.end('second');
    await expect(s.result()).resolves.toBe('first');
  });
});
