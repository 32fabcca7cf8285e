import { describe, expect, it } from 'vitest';
import { readPage } from '../../src/modules/engine/answers.js';
import { toQuestion } from '../../src/modules/engine/question-model.js';
import { apiAnswerOf, formOfAnswers } from '../../src/modules/engine/sessions-api.answers.js';
import type { Question } from '../../src/modules/engine/survey-model.js';
import { translateQuestion } from '../../src/modules/engine/translations.js';
import type { QsfQuestion } from '../../src/modules/surveys/definition/qsf.js';
import { typesMatrixMoreSurvey } from './types-matrix-more-survey.js';

/**
 * The sessions API's answers of profile, constant sum and rank order matrices go through the page's own
 * reader (answers-matrix-cells.ts) and come back in the shape they were given; a profile matrix's row
 * scales are translated like its other texts (translations.ts).
 */
const payloads = (typesMatrixMoreSurvey().SurveyElements as Array<{ Element: string; Payload: QsfQuestion }>)
  .filter((e) => e.Element === 'SQ')
  .map((e) => e.Payload);
const model = (id: string) =>
  toQuestion(payloads.find((p) => p.QuestionID === id) as QsfQuestion) as Question;
const [profile, sum, rank] = ['QID2', 'QID3', 'QID4'].map(model) as [Question, Question, Question];
const sel = (id: string) => ({ [id]: { selected: true } });

function reading(q: Question, answer: unknown) {
  const { form } = formOfAnswers([q], { [q.id]: answer }, {});
  return readPage([q], form, (x) => x.choices, { continueWithoutRequested: true });
}

/** The answer posted, read by the page's reader, and presented again. */
function roundTrip(q: Question, answer: unknown): unknown {
  const read = reading(q, answer);
  expect([...read.errors.values()]).toEqual([]);
  return apiAnswerOf(q, read.answers[q.id] ?? {});
}

const errorOf = (q: Question, answer: unknown) => [...reading(q, answer).errors.values()].join(' ');

describe('sessions API: profile, constant sum and rank order matrices', () => {
  it('reads each answer back as given', () => {
    expect(roundTrip(profile, { 1: sel('2'), 2: sel('3') })).toEqual({ 1: sel('2'), 2: sel('3') });
    const budget = { 1: { 1: 60, 2: 25.5 }, 2: { 1: 40, 2: 74.5 } };
    expect(roundTrip(sum, budget)).toEqual(budget);
    // Numbers may come as numeric strings; they read back as numbers.
    expect(roundTrip(rank, { 1: { 1: '2' }, 2: { 1: 1 }, 3: { 1: 3 } })).toEqual({
      1: { 1: 2 },
      2: { 1: 1 },
      3: { 1: 3 },
    });
    expect(roundTrip(sum, {})).toBeUndefined();
  });

  it('is checked as the page checks it', () => {
    // A profile row takes a point of its own scale only: Size has two points, Colour three.
    expect(errorOf(profile, { 1: sel('3') })).toBe('That answer is not offered here.');
    expect(errorOf(profile, { 2: sel('3') })).toBe('');
    expect(errorOf(sum, { 1: { 1: 60 }, 2: { 1: 30 } })).toContain('must add up to 100');
    expect(errorOf(sum, { 1: { 2: 'lots' } })).toBe('Enter a number of 0 or more in each box.');
    expect(errorOf(rank, { 1: { 1: 2 }, 2: { 1: 2 }, 3: { 1: 3 } })).toContain(
      'a different rank from 1 to 3',
    );
  });

  it('refuses answers of the wrong shape, naming the place', () => {
    expect(() => reading(sum, { 1: 60 })).toThrow(/responses\.QID3\.1/);
    expect(() => reading(sum, { 1: { 1: true } })).toThrow(/responses\.QID3\.1\.1/);
    expect(() => reading(rank, [1, 2, 3])).toThrow(/responses\.QID4/);
    expect(() => reading(profile, { 1: '2' })).toThrow(/responses\.QID2\.1/);
  });
});

describe('translations of a profile matrix', () => {
  const translated = toQuestion({
    ...(payloads.find((p) => p.QuestionID === 'QID2') as QsfQuestion),
    Language: {
      DE: {
        QuestionText: 'Beschreiben Sie Ihr Hemd',
        Choices: { 1: { Display: 'Größe' }, 2: { Display: 'Farbe' } },
        Answers: { 1: { 1: { Display: 'Klein' }, 2: { Display: 'Groß' } }, 2: { 1: { Display: 'Rot' } } },
      },
    },
  } as QsfQuestion) as Question;
  const texts = (q: Question) =>
    Object.fromEntries(
      Object.entries(q.rowAnswers ?? {}).map(([row, points]) => [row, points.map((p) => p.text)]),
    );

  it("translates each row's scale points, a point without a translation keeping its text", () => {
    const german = translateQuestion(translated, 'DE');
    expect(texts(german)).toEqual({ 1: ['Klein', 'Groß'], 2: ['Rot', 'Green', 'Blue'] });
    expect(german.choices.map((c) => c.text)).toEqual(['Größe', 'Farbe']);
    expect(german.answers).toEqual([]);
    // Ids and recodes are the base scale's: the answer recorded is the same in every language.
    expect(german.rowAnswers?.['1']?.map((p) => [p.id, p.recode])).toEqual(
      translated.rowAnswers?.['1']?.map((p) => [p.id, p.recode]),
    );
    expect(texts(translateQuestion(translated, 'FR'))).toEqual({
      1: ['Small', 'Large'],
      2: ['Red', 'Green', 'Blue'],
    });
  });

  it('reads no row scales from a plain scale’s translated points', () => {
    const likert = toQuestion({
      ...(payloads.find((p) => p.QuestionID === 'QID8') as QsfQuestion),
      Language: { DE: { Answers: { 1: { Display: 'Heiß' }, 2: { Display: 'Kalt' } } } },
    } as QsfQuestion) as Question;
    expect(likert.translations?.DE).toEqual({ answers: { 1: 'Heiß', 2: 'Kalt' } });
    expect(translateQuestion(likert, 'DE').answers.map((a) => a.text)).toEqual(['Heiß', 'Kalt']);
  });
});
