import { describe, expect, it } from 'vitest';
import { idPattern, newId, newIds, randomAlphanumerics } from './ids.js';

describe('identifiers', () => {
  it('draws a batch of identifiers at once, each a v3 identifier of the prefix, all distinct', () => {
    const ids = newIds('CID', 5000);
    expect(ids).toHaveLength(5000);
    const pattern = new RegExp(idPattern('CID'));
    for (const id of ids) expect(id).toMatch(pattern);
    expect(new Set(ids).size).toBe(5000);
  });

  it('makes one identifier as a batch of one, and an empty batch of none', () => {
    expect(newId('CGC')).toMatch(new RegExp(idPattern('CGC')));
    expect(newIds('CGC', 0)).toEqual([]);
    expect(randomAlphanumerics(40, 3).map((text) => text.length)).toEqual([40, 40, 40]);
  });

  it('uses every character of the alphabet in a large batch', () => {
    const characters = new Set(randomAlphanumerics(15, 2000).join(''));
    expect(characters.size).toBe(62);
  });
});
