import { describe, expect, it } from 'vitest';
import { blockPages } from '../../src/modules/engine/flow.js';
import type { Block } from '../../src/modules/engine/survey-model.js';

const block = (randomizeQuestions: Block['randomizeQuestions']): Block => ({
  id: 'BL_1',
  description: 'B',
  pages: [['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7']],
  randomizeQuestions,
});

describe('block question randomization', () => {
  it('fills an advanced template: fixed questions stay, random slots from their sets, undisplayed never shown', () => {
    const advanced = {
      fixed: ['Q1', '{~Randomize~}', '{~Randomize~}', '{~SubSet~}', 'Q7'],
      random: ['Q2', 'Q3'],
      subsetOf: ['Q4', 'Q5'],
      subsetCount: 1,
      hidden: ['Q6'],
    };
    for (let seed = 1; seed < 30; seed++) {
      const pages = blockPages(block({ perPage: 2, advanced }), seed);
      const order = pages.flat();
      expect(pages.every((p) => p.length <= 2)).toBe(true);
      expect(order[0]).toBe('Q1');
      expect(order.at(-1)).toBe('Q7');
      expect([...(order.slice(1, 3) as string[])].sort()).toEqual(['Q2', 'Q3']);
      expect(['Q4', 'Q5']).toContain(order[3]);
      expect(order).toHaveLength(5);
      expect(blockPages(block({ perPage: 2, advanced }), seed)).toEqual(pages);
    }
  });

  it('draws a subset of N, in a seeded order', () => {
    const pages = blockPages(block({ perPage: 1, subset: 3 }), 7);
    expect(pages).toHaveLength(3);
    expect(new Set(pages.flat()).size).toBe(3);
    const orders = new Set(
      Array.from({ length: 20 }, (_, s) => blockPages(block({ perPage: 1, subset: 3 }), s).join()),
    );
    expect(orders.size).toBeGreaterThan(1);
  });
});
