import { describe, expect, it } from 'vitest';
import { moveTo, tabStop } from './roving-list';

describe('tabStop', () => {
  it('keeps the item last focused while it is listed, else the open one, else the first', () => {
    expect(tabStop(['a', 'b', 'c'], 'c', 'b')).toBe('c');
    expect(tabStop(['a', 'b'], 'gone', 'b')).toBe('b');
    expect(tabStop(['a', 'b'], null, 'elsewhere')).toBe('a');
    expect(tabStop([], 'a', 'a')).toBeNull();
  });
});

describe('moveTo', () => {
  it('moves one step with the arrows, stopping at the ends, and jumps with Home and End', () => {
    expect(moveTo('ArrowDown', 0, 3)).toBe(1);
    expect(moveTo('ArrowDown', 2, 3)).toBe(2);
    expect(moveTo('ArrowUp', 0, 3)).toBe(0);
    expect(moveTo('ArrowUp', 2, 3)).toBe(1);
    expect(moveTo('Home', 2, 3)).toBe(0);
    expect(moveTo('End', 0, 3)).toBe(2);
  });
  it('leaves other keys and empty lists alone', () => {
    expect(moveTo('Enter', 1, 3)).toBeNull();
    expect(moveTo('ArrowDown', 0, 0)).toBeNull();
  });
});
