import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importQsf } from '../qsf-import.js';
import { resolvedQuestionsOf } from './carry-forward.js';
import { evaluateLogic } from './logic.js';
import { quotasOf, recodeOf } from './qsf.js';
import { QuestionKeys, recordedFacts } from './recorded-facts.js';
import type { Survey } from './response-values.js';
import { valueKeyIndex } from './value-keys.js';

/** A fixture survey as compiled-survey.ts compiles it. */
function compiled(file: string) {
  const text = readFileSync(new URL(`../../../../test/fixtures/surveys/${file}`, import.meta.url), 'utf8');
  const definition = importQsf(JSON.parse(text), 'SV_aaaaaaaaaaaaaaa').document;
  const questions = new Map(resolvedQuestionsOf(definition).map((q) => [q.QuestionID, q]));
  const plain: Survey = { keys: valueKeyIndex(definition), questions };
  return { definition, plain };
}

/** Every value a key can hold, as a number and as a string, and values no choice has. */
function valuesFor(survey: Survey, name: string): unknown[] {
  const key = survey.keys.get(name);
  const question = key && survey.questions.get(key.questionId);
  const recodes = question
    ? [...question.ChoiceOrder, ...(question.AnswerOrder ?? [])].map((id) => recodeOf(question, id))
    : [];
  const numbers = recodes.map(Number).filter((n) => !Number.isNaN(n));
  return [...recodes, ...numbers, 0, 1, 2, '1', 99, 'nope', '<b>x</b> y', true, null, -0];
}

describe('QuestionKeys', () => {
  it('gives the quota conditions the same facts as keys worked out per response', () => {
    const { definition, plain } = compiled('small.qsf');
    const quotas = quotasOf(definition);
    expect(quotas.length).toBeGreaterThan(0);
    const shared = new QuestionKeys(plain.questions);
    const met = (values: Record<string, unknown>, keys?: QuestionKeys) =>
      quotas
        .filter((q) => evaluateLogic(q.Logic, recordedFacts(values, plain.questions, keys)))
        .map((q) => q.ID);
    const responses = valuesFor(plain, 'QID1').map((value) => ({ QID1: value, QID2_1: 1 }));
    for (const values of responses) expect(met(values, shared)).toEqual(met(values));
    // Some response meets the conditional quota and some does not: the facts are read, not constant.
    expect(new Set(responses.map((v) => met(v, shared).length)).size).toBeGreaterThan(1);
  });

  it('answers the keys of a side-by-side column apart from the question’s', () => {
    const { plain } = compiled('every-type.qsf');
    const sbs = [...plain.keys.values()].find((k) => k.column !== undefined);
    if (!sbs) throw new Error('no side-by-side key');
    const keys = new QuestionKeys(plain.questions);
    const column = keys.of(`${sbs.questionId}#${sbs.column}`);
    expect(column.length).toBeGreaterThan(0);
    expect(column.every((k) => k.column === sbs.column)).toBe(true);
    expect(keys.of(sbs.questionId).some((k) => k.column !== undefined)).toBe(false);
    expect(keys.of(`${sbs.questionId}#${sbs.column}`)).toBe(column);
    expect(keys.of('QID_none')).toEqual([]);
  });
});
