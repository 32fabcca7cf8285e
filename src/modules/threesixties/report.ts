/**
 * A subject's 360 report (issue 16), computed from the counted finished evaluations: per question item and
 * per competency, the mean per reported group, self beside others, with counts. Pure.
 *
 * Anonymity: Self is the subject's own evaluation and always its own group. Every other relationship with
 * fewer evaluations than the threshold is merged into "Others"; when "Others" is still below it, its
 * evaluations are left out of every mean (only their number is shown), so no mean, nor a difference of
 * two means, reveals them. A mean over fewer answers than the threshold is not shown either (null).
 */
import { MERGED_GROUP } from './workflow.js';

export interface ReportItem {
  /** The value key of the answer (`QID1`, `QID3_2` a matrix row). */
  key: string;
  questionId: string;
  text: string;
  /** Null for a question in none of the workflow's competencies. */
  competency: string | null;
}

export interface RatedEvaluation {
  relationship: string;
  values: Record<string, unknown>;
}

export interface ReportInput {
  anonymityThreshold: number;
  /** The workflow's relationships, in its order. */
  relationships: readonly string[];
  items: readonly ReportItem[];
  evaluations: readonly RatedEvaluation[];
}

export interface Score {
  mean: number | null;
  count: number;
}

export interface ReportGroup {
  name: string;
  relationships: string[];
  evaluations: number;
  /** False for a merged group still below the threshold: left out of every mean. */
  shown: boolean;
}

export interface ScoreRow {
  self: number | null;
  /** Every shown group but Self together. */
  others: number | null;
  groups: Record<string, Score>;
}

export interface Report {
  anonymityThreshold: number;
  groups: ReportGroup[];
  questions: (ScoreRow & ReportItem)[];
  competencies: (ScoreRow & { name: string })[];
}

const SELF = 'Self';

/** The reported groups: Self, each relationship at or above the threshold, then Others. */
export function reportGroups(
  input: Pick<ReportInput, 'anonymityThreshold' | 'relationships' | 'evaluations'>,
) {
  const count = (name: string) => input.evaluations.filter((e) => e.relationship === name).length;
  const groups: ReportGroup[] = [];
  const merged: string[] = [];
  for (const name of input.relationships) {
    const n = count(name);
    if (name === SELF || n >= input.anonymityThreshold)
      groups.push({ name, relationships: [name], evaluations: n, shown: true });
    else if (n > 0) merged.push(name);
  }
  if (merged.length > 0) {
    const n = merged.reduce((sum, name) => sum + count(name), 0);
    groups.push({
      name: MERGED_GROUP,
      relationships: merged,
      evaluations: n,
      shown: n >= input.anonymityThreshold,
    });
  }
  return groups;
}

const numberOf = (value: unknown) => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};

const mean = (values: number[]) =>
  values.length === 0 ? null : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;

export function buildReport(input: ReportInput): Report {
  const groups = reportGroups(input);
  const shown = groups.filter((g) => g.shown);
  const members = (group: ReportGroup) =>
    input.evaluations.filter((e) => group.relationships.includes(e.relationship));
  const threshold = (group: ReportGroup) => (group.name === SELF ? 1 : input.anonymityThreshold);

  /** Scores over some items: per group, every answer of those items; the count is of evaluations that answered. */
  const scoreRow = (keys: readonly string[]): ScoreRow => {
    const answers = (evaluations: readonly RatedEvaluation[]) => {
      const values: number[] = [];
      let answered = 0;
      for (const e of evaluations) {
        const mine = keys.map((k) => numberOf(e.values[k])).filter((v): v is number => v !== undefined);
        if (mine.length > 0) answered += 1;
        values.push(...mine);
      }
      return { values, answered };
    };
    const row: ScoreRow = { self: null, others: null, groups: {} };
    for (const group of groups) {
      const { values, answered } = answers(members(group));
      const visible = group.shown && answered >= threshold(group);
      row.groups[group.name] = { mean: visible ? mean(values) : null, count: answered };
    }
    row.self = row.groups[SELF]?.mean ?? null;
    const others = answers(shown.filter((g) => g.name !== SELF).flatMap(members));
    row.others = others.answered >= input.anonymityThreshold ? mean(others.values) : null;
    return row;
  };

  const competencyNames = [...new Set(input.items.flatMap((item) => item.competency ?? []))];
  return {
    anonymityThreshold: input.anonymityThreshold,
    groups,
    questions: input.items.map((item) => ({ ...item, ...scoreRow([item.key]) })),
    competencies: competencyNames.map((name) => ({
      name,
      ...scoreRow(input.items.filter((item) => item.competency === name).map((item) => item.key)),
    })),
  };
}
