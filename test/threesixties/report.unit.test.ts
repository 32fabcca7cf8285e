import { describe, expect, it } from 'vitest';
import { buildReport, type RatedEvaluation } from '../../src/modules/threesixties/report.js';

const ITEMS = [
  { key: 'QID1', questionId: 'QID1', text: 'Explains', competency: 'Communication' },
  { key: 'QID2', questionId: 'QID2', text: 'Listens', competency: 'Communication' },
];
const RELATIONSHIPS = ['Self', 'Manager', 'Peer', 'Direct report', 'Other'];
const rated = (relationship: string, score: number | string): RatedEvaluation => ({
  relationship,
  values: { QID1: score, QID2: score },
});

describe('the 360 report', () => {
  it('shows each relationship at or above the threshold, self beside others, with counts', () => {
    const report = buildReport({
      anonymityThreshold: 2,
      relationships: RELATIONSHIPS,
      items: ITEMS,
      evaluations: [
        rated('Self', 5),
        rated('Peer', 2),
        rated('Peer', 4),
        rated('Direct report', 3),
        rated('Direct report', '5'),
      ],
    });
    expect(report.groups.map((g) => [g.name, g.evaluations, g.shown])).toEqual([
      ['Self', 1, true],
      ['Peer', 2, true],
      ['Direct report', 2, true],
    ]);
    expect(report.questions[0]).toMatchObject({
      self: 5,
      others: 3.5,
      groups: {
        Self: { mean: 5, count: 1 },
        Peer: { mean: 3, count: 2 },
        'Direct report': { mean: 4, count: 2 },
      },
    });
    expect(report.competencies).toEqual([
      expect.objectContaining({ name: 'Communication', self: 5, others: 3.5 }),
    ]);
  });

  it('merges relationships below the threshold into Others, and hides Others while it is still below', () => {
    const merged = buildReport({
      anonymityThreshold: 3,
      relationships: RELATIONSHIPS,
      items: ITEMS,
      evaluations: [rated('Manager', 1), rated('Peer', 3), rated('Peer', 5), rated('Other', 4)],
    });
    expect(merged.groups).toEqual([
      { name: 'Self', relationships: ['Self'], evaluations: 0, shown: true },
      { name: 'Others', relationships: ['Manager', 'Peer', 'Other'], evaluations: 4, shown: true },
    ]);
    expect(merged.questions[0]?.groups.Others).toEqual({ mean: 3.25, count: 4 });
    const hidden = buildReport({
      anonymityThreshold: 3,
      relationships: RELATIONSHIPS,
      items: ITEMS,
      evaluations: [
        rated('Self', 4),
        rated('Manager', 1),
        rated('Peer', 2),
        rated('Peer', 2),
        rated('Peer', 2),
      ],
    });
    // Peer is shown; the manager alone is below the threshold: no mean, nor the all-others mean, includes them.
    expect(hidden.groups.map((g) => [g.name, g.shown])).toEqual([
      ['Self', true],
      ['Peer', true],
      ['Others', false],
    ]);
    expect(hidden.questions[0]).toMatchObject({
      self: 4,
      others: 2,
      groups: { Others: { mean: null, count: 1 } },
    });
  });

  it('never shows a relationship below the threshold on its own, whatever the counts', () => {
    for (let seed = 0; seed < 200; seed++) {
      const threshold = 1 + (seed % 4);
      const evaluations = RELATIONSHIPS.flatMap((name, i) =>
        Array.from({ length: (seed * (i + 3)) % 5 }, (_, n) => rated(name, 1 + ((n + i) % 5))),
      );
      const report = buildReport({
        anonymityThreshold: threshold,
        relationships: RELATIONSHIPS,
        items: ITEMS,
        evaluations,
      });
      for (const group of report.groups) {
        if (group.name === 'Self') continue;
        if (group.shown) expect(group.evaluations).toBeGreaterThanOrEqual(threshold);
        if (group.name !== 'Others') expect(group.relationships).toEqual([group.name]);
        for (const q of report.questions) {
          const score = q.groups[group.name];
          if (score?.mean !== null) expect(score?.count).toBeGreaterThanOrEqual(threshold);
        }
      }
      for (const q of report.questions) {
        const nonSelf = report.groups
          .filter((g) => g.shown && g.name !== 'Self')
          .reduce((n, g) => n + g.evaluations, 0);
        if (q.others !== null) expect(nonSelf).toBeGreaterThanOrEqual(threshold);
      }
    }
  });

  it('leaves out answers that are not numbers and items nobody answered', () => {
    const report = buildReport({
      anonymityThreshold: 1,
      relationships: ['Peer'],
      items: ITEMS,
      evaluations: [{ relationship: 'Peer', values: { QID1: 'n/a', QID2: 4 } }],
    });
    expect(report.questions.map((q) => q.groups.Peer)).toEqual([
      { mean: null, count: 0 },
      { mean: 4, count: 1 },
    ]);
  });
});
