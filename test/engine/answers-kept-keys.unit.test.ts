/**
 * A page's answers as a response, with the value keys the compiled version keeps (issue 20): a completion
 * takes each question's keys from the version's QuestionKeys instead of working them out again, and a
 * page of a survey without quotas lays out no answers at all.
 */
import { describe, expect, it, vi } from 'vitest';
import { responseAnswers } from '../../src/modules/engine/response.js';
import { questionsOf } from '../../src/modules/surveys/definition/qsf.js';
import { QuestionKeys } from '../../src/modules/surveys/definition/recorded-facts.js';
import { valueKeysOf } from '../../src/modules/surveys/definition/value-keys.js';
import { importQsf } from '../../src/modules/surveys/qsf-import.js';
import { fullQuotasMatching } from '../../src/modules/surveys/survey-taking.service.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

const doc = importQsf(
  qsf({
    blocks: [block('BL_a', ['QID1', 'QID2'])],
    flow: [blockFlow('BL_a', 'FL_2')],
    questions: [
      question('QID1', { type: 'MC', selector: 'SAVR', sub: 'TX', choices: ['Red', 'Blue'] }),
      question('QID2', {
        type: 'SBS',
        selector: 'SBSMatrix',
        choices: ['Apples'],
        extra: {
          AdditionalQuestions: {
            1: {
              QuestionText: 'Taste',
              QuestionType: 'Matrix',
              Selector: 'Likert',
              SubSelector: 'SingleAnswer',
              Answers: { 1: { Display: 'Good' }, 2: { Display: 'Bad' } },
              AnswerOrder: [1, 2],
            },
          },
        },
      }),
    ],
  }),
  'SV_keptkeys0000000',
).document;
const questions = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
const answers = { QID1: { QID1: ['2'] }, QID2: { 'QID2#1_1': ['1'] } };

describe('QuestionKeys.all', () => {
  it("is a question's every key, side-by-side columns included, worked out once", () => {
    const keys = new QuestionKeys(questions);
    const sbs = questions.get('QID2');
    if (!sbs) throw new Error('no QID2');
    expect(keys.all('QID2').map((k) => k.key)).toEqual(valueKeysOf(sbs).map((k) => k.key));
    expect(keys.all('QID2').map((k) => k.key)).toContain('QID2#1_1');
    expect(keys.all('QID2')).toBe(keys.all('QID2'));
    expect(keys.all('QID9')).toEqual([]);
  });
});

describe('responseAnswers with kept keys', () => {
  it('takes the keys from the QuestionKeys it is given, with the same answers as without', () => {
    const keys = new QuestionKeys(questions);
    const all = vi.spyOn(keys, 'all');
    const kept = responseAnswers(questions, ['QID1', 'QID2'], answers, keys);
    expect(all.mock.calls.map(([id]) => id)).toEqual(['QID1', 'QID2']);
    expect(kept).toEqual(responseAnswers(questions, ['QID1', 'QID2'], answers));
    expect(kept.answers).toEqual({ QID1: 2, 'QID2#1_1': 1 });
  });
});

describe('fullQuotasMatching', () => {
  it('asks for no answers and reads nothing when the definition has no quotas', async () => {
    const values = vi.fn(() => ({}));
    const db = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the database was used');
        },
      },
    ) as never;
    const survey = {
      surveyId: 'SV_keptkeys0000000',
      organizationId: 'org',
      questions,
      questionKeys: new QuestionKeys(questions),
      hasQuotas: false,
    };
    expect(await fullQuotasMatching(db, survey, values)).toEqual([]);
    expect(values).not.toHaveBeenCalled();
  });
});
