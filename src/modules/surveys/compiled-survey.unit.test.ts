import { describe, expect, it } from 'vitest';
import { BoundedLru } from './compiled-survey.js';

describe('BoundedLru', () => {
  it('drops the least recently used entry past the entry count', () => {
    const lru = new BoundedLru<string>(2, 1000);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 1);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.size).toBe(2);
  });

  it('drops the oldest entries until the summed weight fits', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.set('c', 'C', 4);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('b')).toBe('B');
    expect(lru.get('c')).toBe('C');
  });

  it('keeps the newest entry even when it alone is over the weight', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 4);
    lru.set('big', 'BIG', 50);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('big')).toBe('BIG');
    expect(lru.size).toBe(1);
  });

  it('replacing a key counts its new weight only', () => {
    const lru = new BoundedLru<string>(100, 10);
    lru.set('a', 'A', 6);
    lru.set('a', 'A2', 3);
    lru.set('b', 'B', 7);
    expect(lru.get('a')).toBe('A2');
    expect(lru.get('b')).toBe('B');
  });
});
