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
import { typesMatrixSurvey } from './types-matrix-survey.js';

// The matrix family's survey: QID33 is a side-by-side question, whose columns' keys carry `#`.
const doc = importQsf(typesMatrixSurvey(), 'SV_keptkeys0000000').document;
const questions = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
const answers = { QID31: { QID31_1_1: ['Nursing'] }, QID33: { 'QID33#1_1': ['2'] } };

describe('QuestionKeys.all', () => {
  it("is a question's every key, side-by-side columns included, worked out once", () => {
    const keys = new QuestionKeys(questions);
    const sbs = questions.get('QID33');
    if (!sbs) throw new Error('no QID33');
    expect(keys.all('QID33').map((k) => k.key)).toEqual(valueKeysOf(sbs).map((k) => k.key));
    expect(keys.all('QID33').map((k) => k.key)).toContain('QID33#1_1');
    expect(keys.all('QID33')).toBe(keys.all('QID33'));
    expect(keys.all('QID9')).toEqual([]);
  });
});

describe('responseAnswers with kept keys', () => {
  it('takes the keys from the QuestionKeys it is given, with the same answers as without', () => {
    const keys = new QuestionKeys(questions);
    const all = vi.spyOn(keys, 'all');
    const kept = responseAnswers(questions, ['QID31', 'QID33'], answers, keys);
    expect(all.mock.calls.map(([id]) => id)).toEqual(['QID31', 'QID33']);
    expect(kept).toEqual(responseAnswers(questions, ['QID31', 'QID33'], answers));
    expect(kept.answers).toEqual({ QID31_1_1: 'Nursing', 'QID33#1_1': 2 });
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
