/**
 * Issue 14 leftovers, on both databases: the sessions API takes profile, constant sum and rank order
 * matrices in the shapes of the other matrices (sessions-api.matrix-answers.ts), checked as the page
 * checks them, and the response reads back over the API; a profile matrix's row scales are shown in the
 * session's language, on the page and in the sessions API, while the response records the same values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { block, blockFlow, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { typesMatrixMoreSurvey } from './types-matrix-more-survey.js';

let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t?.close();
});

const sessions = (surveyId: string) => `/API/v3/surveys/${surveyId}/sessions`;
const sel = (id: string) => ({ [id]: { selected: true } });
const advance = (surveyId: string, sessionId: string, responses: object) =>
  t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, { advance: true, responses });
const start = async (surveyId: string, body: object = {}) => {
  const res = await t.call(org.apiToken, 'POST', sessions(surveyId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result;
};
const responseOf = async (surveyId: string, responseId: string) => {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};
const questionKeys = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([k]) => /^QID[234]_/.test(k)));

describe('sessions API: profile, constant sum and rank order matrices', () => {
  let surveyId: string;
  beforeAll(async () => {
    surveyId = await importSurvey(t, org.apiToken, JSON.stringify(typesMatrixMoreSurvey()));
  });

  it("shows each profile row's scale, refuses what the page refuses, and records the answers", async () => {
    const { sessionId } = await start(surveyId);
    const page2 = await advance(surveyId, sessionId, { QID1: { ...sel('1'), ...sel('3') } });
    expect(page2.status, JSON.stringify(page2.body)).toBe(200);
    const shirt = page2.body.result.questions.find((q: { questionId: string }) => q.questionId === 'QID2');
    expect(shirt).toMatchObject({
      questionType: { type: 'Matrix', selector: 'Profile' },
      choiceOrder: ['1', '2'],
      rowScales: {
        1: { answerOrder: ['1', '2'], answers: { 1: { answerText: 'Small' }, 2: { answerText: 'Large' } } },
        2: { answerOrder: ['1', '2', '3'], answers: { 3: { answerText: 'Blue' } } },
      },
    });

    const refused = await advance(surveyId, sessionId, {
      QID2: { 1: sel('3') }, // Size has no third point (Colour has)
      QID3: { 1: { 1: 60 }, 2: { 1: 30 } },
      QID4: { 1: { 1: 2 }, 2: { 1: 2 }, 3: { 1: 3 } },
    });
    expect([refused.status, refused.body.meta.error.errorCode]).toEqual([400, 'FW_VAL_1']);
    const message = refused.body.meta.error.errorMessage as string;
    expect(message).toContain('responses.QID2: That answer is not offered here.');
    expect(message).toContain(
      'responses.QID3: The numbers in “This year” must add up to 100 (they add up to 90).',
    );
    expect(message).toContain('responses.QID4: Give each row in “Taste” a different rank from 1 to 3.');
    const shape = await advance(surveyId, sessionId, { QID3: { 1: 60 } });
    expect([shape.status, shape.body.meta.error.errorMessage]).toEqual([
      400,
      expect.stringContaining('responses.QID3.1'),
    ]);
    const still = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/${sessionId}`);
    expect(still.body.result.questions.map((q: { questionId: string }) => q.questionId)).toContain('QID2');

    const end = await advance(surveyId, sessionId, {
      QID2: { 1: sel('2'), 2: sel('3') },
      QID3: { 1: { 1: 60, 2: 25.5 }, 2: { 1: 40, 2: '74.5' } },
      QID4: { 1: { 1: 2 }, 2: { 1: 1 }, 3: { 1: 3 } },
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body.result.status).toBe('complete');
    const { values, labels } = await responseOf(surveyId, end.body.result.responseId);
    expect(questionKeys(values)).toEqual({
      QID2_1: 2,
      QID2_2: 3,
      QID3_1_1: 60,
      QID3_1_2: 25.5,
      QID3_2_1: 40,
      QID3_2_2: 74.5,
      QID4_1_1: 2,
      QID4_2_1: 1,
      QID4_3_1: 3,
    });
    expect(labels).toMatchObject({ QID2_1: 'Large', QID2_2: 'Blue' });
  });
});

/** A profile matrix translated to German, the Colour row's last point left untranslated. */
function germanProfileSurvey() {
  const profile = question('QID1', {
    type: 'Matrix',
    selector: 'Profile',
    sub: 'SingleAnswer',
    text: 'Describe your shirt',
    choices: ['Size', 'Colour'],
    extra: {
      Answers: {
        1: { 1: { Display: 'Small' }, 2: { Display: 'Large' } },
        2: { 1: { Display: 'Red' }, 2: { Display: 'Green' }, 3: { Display: 'Blue' } },
      },
      AnswerOrder: ['1', '2'],
    },
  });
  profile.Payload = {
    ...(profile.Payload as object),
    Language: {
      DE: {
        QuestionText: 'Beschreiben Sie Ihr Hemd',
        Choices: { 1: { Display: 'Größe' }, 2: { Display: 'Farbe' } },
        Answers: {
          1: { 1: { Display: 'Klein' }, 2: { Display: 'Groß' } },
          2: { 1: { Display: 'Rot' }, 2: { Display: 'Grün' } },
        },
      },
    },
  };
  return qsf({
    blocks: [block('BL_profilede0000001', ['QID1'])],
    flow: [blockFlow('BL_profilede0000001', 'FL_2')],
    questions: [profile],
  });
}

/** The labels of the radio buttons of a profile page, in order. */
const radioLabels = (html: string) =>
  [...html.matchAll(/<input type="radio" id="([^"]+)"[^>]*><label for="\1">([^<]*)<\/label>/g)].map(
    (m) => m[2],
  );

describe('a profile matrix in a second language', () => {
  let surveyId: string;
  beforeAll(async () => {
    surveyId = await importSurvey(t, org.apiToken, JSON.stringify(germanProfileSurvey()));
  });

  it('shows the row scales in German on the page and records the same values as in English', async () => {
    const form = `/jfe/form/${surveyId}`;
    const german = new FormClient(t);
    const page = await german.get(`${form}?Q_Language=DE`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Beschreiben Sie Ihr Hemd');
    expect(radioLabels(page.body)).toEqual(['Klein', 'Groß', 'Rot', 'Grün', 'Blue']);
    const english = await new FormClient(t).get(form);
    expect(radioLabels(english.body)).toEqual(['Small', 'Large', 'Red', 'Green', 'Blue']);

    const end = await german.post(form, page.body, { QID1_1: '2', QID1_2: '2' });
    expect(end.status).toBe(200);
    const session = await t.database.db
      .selectFrom('engine_sessions')
      .select('response_id')
      .where('survey_id', '=', surveyId)
      .where('response_id', 'is not', null)
      .executeTakeFirstOrThrow();
    const { values, labels } = await responseOf(surveyId, session.response_id as string);
    expect([values.QID1_1, values.QID1_2, values.userLanguage]).toEqual([2, 2, 'DE']);
    // Labels are the survey's own texts, whatever language the respondent saw.
    expect([labels.QID1_1, labels.QID1_2]).toEqual(['Large', 'Green']);
  });

  it('gives the sessions API the row scales in the session’s language', async () => {
    const session = await start(surveyId, { language: 'de' });
    const [profile] = session.questions;
    expect(profile.questionText).toBe('Beschreiben Sie Ihr Hemd');
    const texts = (row: { answerOrder: string[]; answers: Record<string, { answerText: string }> }) =>
      row.answerOrder.map((id) => row.answers[id]?.answerText);
    expect(texts(profile.rowScales[1])).toEqual(['Klein', 'Groß']);
    expect(texts(profile.rowScales[2])).toEqual(['Rot', 'Grün', 'Blue']);
    const end = await advance(surveyId, session.sessionId, { QID1: { 1: sel('1'), 2: sel('3') } });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    const { values } = await responseOf(surveyId, end.body.result.responseId);
    expect([values.QID1_1, values.QID1_2, values.userLanguage]).toEqual([1, 3, 'DE']);
  });
});
