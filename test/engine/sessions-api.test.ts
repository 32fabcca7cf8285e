import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { eventsTestApp, testWorker } from '../events/event-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { call200, defs, mcQuestion } from '../survey-definitions/definitions-helpers.js';
import { engineFixture, importSurvey, questionKeys } from './engine-helpers.js';
import { FormClient } from './form-client.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

let t: TestApp;
let org: BootstrapResult;
let other: BootstrapResult;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
const PETS = engineFixture('pets.qsf');

beforeAll(async () => {
  ({ t } = await eventsTestApp());
  worker = testWorker(t);
  receiver = await startWebhookReceiver();
  org = await t.newOrganization();
  other = await t.newOrganization();
  const sub = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: receiver.url,
    topics: 'surveyengine.completedResponse.*',
  });
  expect(sub.status).toBe(200);
});
afterAll(async () => {
  await receiver?.close();
  await worker?.stop();
  await t?.close();
});

const sessions = (surveyId: string) => `/API/v3/surveys/${surveyId}/sessions`;
const sel = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, { selected: true }]));
const responseOf = async (surveyId: string, responseId: string) => {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};
const questionIds = (body: { result: { questions: { questionId: string }[] } }) =>
  body.result.questions.map((q) => q.questionId);

async function start(surveyId: string, body: object = { language: 'EN' }) {
  const res = await t.call(org.apiToken, 'POST', sessions(surveyId), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
}
const advance = (surveyId: string, sessionId: string, responses: object, token = org.apiToken) =>
  t.call(token, 'POST', `${sessions(surveyId)}/${sessionId}`, { advance: true, responses });

/** What a response records for the questions and the survey's embedded data, without its metadata. */
const recorded = (r: { values: Record<string, unknown>; labels: Record<string, unknown> }) => {
  const keys = [...questionKeys(r.values), 'source', 'ResponseEventContext'];
  return {
    values: Object.fromEntries(keys.map((k) => [k, r.values[k]])),
    labels: Object.fromEntries(questionKeys(r.labels).map((k) => [k, r.labels[k]])),
  };
};

describe('sessions API', () => {
  it('takes a survey page by page and records what the browser pages record for the same answers', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const created = await start(surveyId, {
      language: 'EN',
      embeddedData: { ResponseEventContext: 'ctx', nope: 'x' },
    });
    const { sessionId } = created.body.result;
    expect(sessionId).toMatch(/^FS_[A-Za-z0-9]{15}$/);
    expect(created.body.meta.httpStatus).toBe('201 - Created');
    expect(created.body.result).toMatchObject({ done: false, status: 'open', responseId: null });
    const [q1] = created.body.result.questions;
    expect(q1).toMatchObject({
      questionId: 'QID1',
      questionType: { type: 'MC', selector: 'SAVR', subSelector: 'TX' },
      choiceOrder: ['1', '2'],
      validation: { forceResponse: true, requestResponse: false },
    });

    let page = await advance(surveyId, sessionId, { QID1: sel('1') });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(questionIds(page.body)).toEqual(['QID2', 'QID3']);
    page = await advance(surveyId, sessionId, { QID2: 'Rex', QID3: sel('1', '2') });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(questionIds(page.body)).toEqual(['QID4', 'QID5']);
    const read = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/${sessionId}`);
    expect(questionIds(read.body)).toEqual(['QID4', 'QID5']);
    const end = await advance(surveyId, sessionId, { QID4: { 1: sel('1'), 2: sel('2') }, QID5: 'Nice' });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body.result).toMatchObject({ status: 'complete', questions: [] });
    expect(end.body.result.done).toContain('Thank you for telling us about your pets.');
    const apiResponse = await responseOf(surveyId, end.body.result.responseId);

    const client = new FormClient(t);
    const form = `/jfe/form/${surveyId}`;
    let html = await client.get(`${form}?ResponseEventContext=ctx&nope=x`);
    html = await client.post(form, html.body, { QID1: '1' });
    html = await client.post(form, html.body, { QID2_TEXT: 'Rex', QID3: ['1', '2'] });
    html = await client.post(form, html.body, { QID4_1: '1', QID4_2: '2', QID5_TEXT: 'Nice' });
    expect(html.body).toContain('Thank you for telling us about your pets.');
    const rows = await t.database.db
      .selectFrom('responses')
      .select('id')
      .where('survey_id', '=', surveyId)
      .where('id', '!=', end.body.result.responseId)
      .execute();
    expect(rows).toHaveLength(1);
    const browserResponse = await responseOf(surveyId, rows[0]?.id ?? '');

    expect(recorded(apiResponse)).toEqual(recorded(browserResponse));
    expect(apiResponse.values).toMatchObject({ QID2_TEXT: 'Rex', QID5_TEXT: 'Nice', source: 'fixture' });
    expect(apiResponse.values.ResponseEventContext).toBe('ctx');
    expect(apiResponse.values).not.toHaveProperty('nope');

    // The completion event fires for the API's response as for the browser's.
    await worker.deliverDue();
    const id = end.body.result.responseId as string;
    await receiver.waitUntil((r) => r.some((x) => x.form.get('MSG')?.includes(id)), 10_000);
    // A recorded session takes no more answers and cannot be discarded.
    const again = await advance(surveyId, sessionId, { QID5: 'more' });
    expect([again.status, again.body.meta.error.errorCode]).toEqual([409, 'FW_SES_2']);
    const del = await t.call(org.apiToken, 'DELETE', `${sessions(surveyId)}/${sessionId}`);
    expect([del.status, del.body.meta.error.errorCode]).toEqual([409, 'FW_SES_2']);
  });

  it('runs the flow’s display logic and the page’s validation, and stays on the page when refused', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const { sessionId } = (await start(surveyId)).body.result;
    const forced = await advance(surveyId, sessionId, {});
    expect([forced.status, forced.body.meta.error.errorCode]).toEqual([400, 'FW_VAL_1']);
    expect(forced.body.meta.error.errorMessage).toContain('responses.QID1: Please answer this question.');
    const notOffered = await advance(surveyId, sessionId, { QID1: sel('9') });
    expect(notOffered.body.meta.error.errorMessage).toContain('That choice is not offered here.');
    const twice = await advance(surveyId, sessionId, { QID1: sel('1', '2') });
    expect(twice.status).toBe(400);
    const elsewhere = await advance(surveyId, sessionId, { QID3: sel('1') });
    expect(elsewhere.body.meta.error.errorMessage).toContain('responses.QID3');
    const shape = await advance(surveyId, sessionId, { QID1: 'yes' });
    expect(shape.status).toBe(400);
    const notAdvancing = await t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, {
      responses: { QID1: sel('2') },
    });
    expect(notAdvancing.status).toBe(400);
    const still = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/${sessionId}`);
    expect(questionIds(still.body)).toEqual(['QID1']);

    // No pet: the pet's name is not asked (display logic), as on the browser pages.
    const next = await advance(surveyId, sessionId, { QID1: sel('2') });
    expect(questionIds(next.body)).toEqual(['QID3']);
    expect(next.body.result.progress === null || typeof next.body.result.progress === 'number').toBe(true);
  });

  it('records the answers so far on close, and discards an open session on DELETE', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const { sessionId } = (await start(surveyId)).body.result;
    const closed = await t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, {
      close: true,
      responses: { QID1: sel('2') },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.result.status).toBe('complete');
    const response = await responseOf(surveyId, closed.body.result.responseId);
    expect(response.values.QID1).toBe(2);
    expect(response.values).not.toHaveProperty('QID3');

    const discarded = (await start(surveyId)).body.result.sessionId;
    const del = await t.call(org.apiToken, 'DELETE', `${sessions(surveyId)}/${discarded}`);
    expect(del.status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/${discarded}`);
    expect([gone.status, gone.body.meta.error.errorCode]).toEqual([404, 'FW_SES_1']);
    const count = await t.database.db
      .selectFrom('responses')
      .select('id')
      .where('survey_id', '=', surveyId)
      .execute();
    expect(count).toHaveLength(1);
  });

  it('hides sessions from other organisations and other surveys, and refuses a closed survey', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const second = await importSurvey(t, org.apiToken, PETS);
    const { sessionId } = (await start(surveyId)).body.result;
    const stranger = await t.call(other.apiToken, 'POST', sessions(surveyId), { language: 'EN' });
    expect(stranger.status).toBe(404);
    for (const [token, sid] of [
      [other.apiToken, surveyId],
      [org.apiToken, second],
    ] as const) {
      const get = await t.call(token, 'GET', `${sessions(sid)}/${sessionId}`);
      expect(get.status).toBe(404);
      expect((await advance(sid, sessionId, { QID1: sel('1') }, token)).status).toBe(404);
      expect((await t.call(token, 'DELETE', `${sessions(sid)}/${sessionId}`)).status).toBe(404);
    }
    const missing = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/FS_000000000000000`);
    expect(missing.body.meta.error.errorCode).toBe('FW_SES_1');

    const inactive = await importSurvey(t, org.apiToken, PETS, { active: false });
    const refused = await t.call(org.apiToken, 'POST', sessions(inactive), { language: 'EN' });
    expect([refused.status, refused.body.meta.error.errorCode]).toEqual([403, 'FW_SES_3']);
    const badRecipient = await t.call(org.apiToken, 'POST', sessions(surveyId), {
      recipient: { contactId: 'CID_000000000000000' },
    });
    expect(badRecipient.status).toBe(400);
  });

  it('ends the session when a full quota matches, as the browser pages do', async () => {
    const doc = qsf({
      blocks: [block('BL_a', ['QID1', '|', 'QID2'])],
      flow: [blockFlow('BL_a', 'FL_2')],
      questions: [
        question('QID1', { type: 'MC', selector: 'SAVR', sub: 'TX', choices: ['Cat', 'Dog'] }),
        question('QID2', { type: 'TE', selector: 'SL' }),
      ],
      quotas: [{ ID: 'QO_cats', Name: 'Cat owners', Occurrences: 1, Logic: selected('QID1', '1') }],
    });
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    const take = async () => {
      const { sessionId } = (await start(surveyId)).body.result;
      const second = await advance(surveyId, sessionId, { QID1: sel('1') });
      if (second.body.result.done !== false) return second;
      return advance(surveyId, sessionId, { QID2: 'hello' });
    };
    expect((await take()).body.result.status).toBe('complete');
    const full = await take();
    expect(full.body.result).toMatchObject({ status: 'quota', responseId: null });
    expect(full.body.result.done).toContain('We already have all the responses we need');
    // The browser is turned away by the same quota.
    const client = new FormClient(t);
    const first = await client.get(`/jfe/form/${surveyId}`);
    const html = await client.post(`/jfe/form/${surveyId}`, first.body, { QID1: '1' });
    expect(html.body).toContain('We already have all the responses we need');
  });

  it('reads matrices, sliders, ranks and forms as the browser’s form fields', async () => {
    const doc = qsf({
      blocks: [block('BL_a', ['QID1', 'QID2', 'QID3', 'QID4'])],
      flow: [blockFlow('BL_a', 'FL_2')],
      questions: [
        question('QID1', {
          type: 'Matrix',
          selector: 'Likert',
          sub: 'MultipleAnswer',
          choices: ['Row a', 'Row b'],
          answers: ['Low', 'High'],
        }),
        question('QID2', { type: 'Slider', selector: 'HSLIDER', choices: ['Speed'] }),
        question('QID3', { type: 'RO', selector: 'DND', sub: 'TX', choices: ['X', 'Y', 'Z'] }),
        question('QID4', { type: 'TE', selector: 'FORM', choices: ['Name', 'Town'] }),
      ],
    });
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    const { sessionId } = (await start(surveyId)).body.result;
    const wrongRank = await advance(surveyId, sessionId, { QID3: { 1: 1, 2: 1, 3: 2 } });
    expect(wrongRank.body.meta.error.errorMessage).toContain('responses.QID3');
    const end = await advance(surveyId, sessionId, {
      QID1: { 1: sel('1', '2'), 2: sel('2') },
      QID2: { 1: 42 },
      QID3: { 1: 3, 2: 1, 3: 2 },
      QID4: { 1: 'Ada', 2: 'Leeds' },
    });
    expect(end.body.result.status, JSON.stringify(end.body)).toBe('complete');
    const apiResponse = await responseOf(surveyId, end.body.result.responseId);

    const client = new FormClient(t);
    const form = `/jfe/form/${surveyId}`;
    const first = await client.get(form);
    const fields = {
      ...{ QID1_1: ['1', '2'], QID1_2: '2', QID2_1: '42' },
      ...{ QID3_1: '3', QID3_2: '1', QID3_3: '2', QID4_1: 'Ada', QID4_2: 'Leeds' },
    };
    expect((await client.post(form, first.body, fields)).status).toBe(200);
    const rows = await t.database.db
      .selectFrom('responses')
      .select('id')
      .where('survey_id', '=', surveyId)
      .where('id', '!=', end.body.result.responseId)
      .execute();
    const browserResponse = await responseOf(surveyId, rows[0]?.id ?? '');
    expect(apiResponse.values).toMatchObject({
      ...{ QID1_1_1: 1, QID1_1_2: 1, QID1_2_2: 1, QID2_1: 42, QID3_1: 3, QID3_2: 1, QID3_3: 2 },
      ...{ QID4_1: 'Ada', QID4_2: 'Leeds' },
    });
    expect(recorded(apiResponse)).toEqual(recorded(browserResponse));
  });

  it('ties a session to the recipient it names, whose fields the response carries', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const contact = await t.call(org.apiToken, 'POST', `/API/v3/directories/${org.directoryId}/contacts`, {
      firstName: 'Ada',
      email: 'ada@example.org',
    });
    expect(contact.status, JSON.stringify(contact.body)).toBe(200);
    const created = await start(surveyId, { recipient: { contactId: contact.body.result.id } });
    const closed = await t.call(
      org.apiToken,
      'POST',
      `${sessions(surveyId)}/${created.body.result.sessionId}`,
      {
        close: true,
      },
    );
    const response = await responseOf(surveyId, closed.body.result.responseId);
    expect(response.values).toMatchObject({ recipientFirstName: 'Ada', recipientEmail: 'ada@example.org' });
  });

  it('runs the published version a session started on, whatever is published since', async () => {
    const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);
    const created = await call('POST', '/API/v3/survey-definitions', { SurveyName: 'Versions' });
    const { SurveyID: id, DefaultBlockID: blockId } = created.result;
    await call('POST', defs(id, '/questions'), mcQuestion('Cat or dog?', ['Cat', 'Dog']));
    await call('POST', defs(id, '/questions'), mcQuestion('Indoors?', ['Yes', 'No']));
    await call('PUT', defs(id, `/blocks/${blockId}`), {
      BlockElements: [
        { Type: 'Question', QuestionID: 'QID1' },
        { Type: 'Page Break' },
        { Type: 'Question', QuestionID: 'QID2' },
      ],
    });
    await call('POST', defs(id, '/versions'), { Description: 'v1' });
    await call('PUT', `/API/v3/surveys/${id}`, { isActive: true });
    const old = (await start(id)).body.result;
    expect(old.questions[0].questionText).toBe('Cat or dog?');

    await call('PUT', defs(id, '/questions/QID1'), mcQuestion('Cat, dog or fish?', ['Cat', 'Dog', 'Fish']));
    await call('DELETE', defs(id, '/questions/QID2'));
    await call('POST', defs(id, '/versions'), { Description: 'v2' });
    const fresh = (await start(id)).body.result;
    expect(fresh.questions[0]).toMatchObject({
      questionText: 'Cat, dog or fish?',
      choiceOrder: ['1', '2', '3'],
    });

    const next = await advance(id, old.sessionId, { QID1: sel('2') });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.result.questions.map((q: { questionText: string }) => q.questionText)).toEqual([
      'Indoors?',
    ]);
    const fish = await advance(id, fresh.sessionId, { QID1: sel('3') });
    expect(fish.body.result.status).toBe('complete');
  });
});
