import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { eventsTestApp, testWorker } from '../events/event-fixtures.js';
import { createUserWithToken } from '../helpers/factories.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { importSmallSurvey, SMALL_QSF, uploadQsf } from './survey-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let worker: DeliveryWorker;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ({ t } = await eventsTestApp());
  worker = testWorker(t);
  org = await t.newOrganization();
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const surveyCount = async (token: string) =>
  (await t.call(token, 'GET', '/API/v3/surveys?pageSize=1000')).body.result.elements.length;

describe('POST /v3/surveys with a QSF file', () => {
  it('imports the survey and serves the whole v3 structure, listing unsupported questions in meta.notice', async () => {
    const res = await uploadQsf(t, org.apiToken, SMALL_QSF);
    expect(res.status).toBe(200);
    expect(res.body.result.id).toMatch(/^SV_[A-Za-z0-9]{15}$/);
    // Pick-group-rank runs since issue 14 (test/engine/import-notices.test.ts lists an unsupported type).
    expect(res.body.meta.notice).not.toContain('QID7');
    expect(res.body.meta.notice).toContain('BL_doesnotexist000');

    const got = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${res.body.result.id}`);
    expect(got.status).toBe(200);
    const survey = got.body.result;
    expect(survey).toMatchObject({
      id: res.body.result.id,
      name: 'Fruit survey',
      ownerId: org.userId,
      organizationId: org.brandId,
      isActive: false,
      expiration: { startDate: null, endDate: null },
      responseCounts: { auditable: 0, generated: 0, deleted: 0 },
      comments: {},
      loopAndMerge: {},
    });
    expect(Object.keys(survey.questions).sort()).toEqual([
      'QID1',
      'QID2',
      'QID3',
      'QID4',
      'QID5',
      'QID6',
      'QID7',
      'QID9',
    ]);
    expect(survey.questions.QID1).toMatchObject({
      questionType: { type: 'MC', selector: 'SAVR', subSelector: 'TX' },
      questionText: 'Which fruit do you like <b>most</b>?',
      questionName: 'fruit',
      validation: { doesForceResponse: true },
      choiceOrder: ['1', '2', '3'],
      choices: { 1: { recode: '10', description: 'Apple' }, 3: { recode: '30', textEntry: true } },
      valueKeys: ['QID1', 'QID1_3_TEXT'],
      supported: true,
    });
    // Missing SubSelector is null; a list of choices is keyed by position.
    expect(survey.questions.QID3.questionType.subSelector).toBeNull();
    expect(survey.questions.QID5.choiceOrder).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(survey.questions.QID4.subQuestions['2'].description).toBe('Price');
    expect(survey.questions.QID4.choices['2'].recode).toBe('5');
    expect(survey.questions.QID7.supported).toBe(true);
    expect(survey.exportColumnMap).toMatchObject({
      fruit: { question: 'QID1' },
      fruit_3_TEXT: { question: 'QID1', choice: 'QID1.choices.3', textEntry: 'true' },
      Q2_1: { question: 'QID2', choice: 'QID2.choices.1' },
      Q4_2: { question: 'QID4', subQuestion: 'QID4.subQuestions.2' },
      comment: { question: 'QID3', textEntry: 'true' },
      nps_NPS_GROUP: { question: 'QID5' },
    });
    expect(survey.blocks.BL_aaaaaaaaaaaaaa1).toEqual({
      description: 'Intro',
      type: 'Default',
      elements: [
        { type: 'Question', questionId: 'QID1' },
        { type: 'Question', questionId: 'QID2' },
        { type: 'PageBreak' },
        { type: 'Question', questionId: 'QID3' },
      ],
    });
    // A block element naming an undefined question and a flow entry naming an undefined block are dropped.
    expect(survey.blocks.BL_aaaaaaaaaaaaaa2.elements).toHaveLength(4);
    expect(survey.flow.map((n: { type: string }) => n.type)).toEqual([
      'EmbeddedData',
      'Block',
      'Branch',
      'Standard',
    ]);
    expect(survey.flow[2].flow[0].type).toBe('EndSurvey');
    expect(survey.embeddedData).toEqual([
      { name: 'panel', type: 'Custom', defaultValue: 'spring' },
      { name: 'ResponseEventContext', type: 'Recipient', defaultValue: null },
    ]);
  });

  it('takes the name from the form over the file’s, and refuses a file that is not QSF, storing nothing', async () => {
    const other = await t.newOrganization();
    const named = await uploadQsf(t, other.apiToken, SMALL_QSF, { name: 'Spring panel' });
    const got = await t.call(other.apiToken, 'GET', `/API/v3/surveys/${named.body.result.id}`);
    expect(got.body.result.name).toBe('Spring panel');

    const before = await surveyCount(other.apiToken);
    const notJson = await uploadQsf(t, other.apiToken, '{"SurveyEntry": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body.meta.error.errorCode).toBe('FW_SUR_1');

    const broken = JSON.parse(SMALL_QSF);
    broken.SurveyElements.push({ Element: 'SQ', Payload: { QuestionType: 'MC' } });
    const noQid = await uploadQsf(t, other.apiToken, JSON.stringify(broken));
    expect(noQid.status).toBe(400);
    expect(noQid.body.meta.error.errorMessage).toContain(
      `file.SurveyElements[${broken.SurveyElements.length - 1}].Payload.QuestionID`,
    );
    const noElements = await uploadQsf(t, other.apiToken, JSON.stringify({ SurveyEntry: {} }));
    expect(noElements.body.meta.error.errorMessage).toContain('file.SurveyElements must be an array');
    const noName = JSON.parse(SMALL_QSF);
    noName.SurveyEntry.SurveyName = '';
    const unnamed = await uploadQsf(t, other.apiToken, JSON.stringify(noName));
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.meta.error.errorMessage).toContain('name');
    expect(await surveyCount(other.apiToken)).toBe(before);
  });

  it('creates a survey from a JSON body in the GET shape, which reads back the same', async () => {
    const id = await importSmallSurvey(t, org.apiToken);
    const record = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}`)).body.result;
    const copy = await t.call(org.apiToken, 'POST', '/API/v3/surveys', { ...record, name: 'Copy' });
    expect(copy.status).toBe(200);
    const read = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${copy.body.result.id}`)).body.result;
    for (const field of ['questions', 'blocks', 'flow', 'embeddedData', 'exportColumnMap', 'quotas'])
      expect(read[field], field).toEqual(record[field]);
    expect(read.name).toBe('Copy');

    const bad = await t.call(org.apiToken, 'POST', '/API/v3/surveys', {
      name: 'Bad',
      questions: { QID1: { questionType: { type: 'MC', selector: 'SAVR' }, choices: 'nope' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error.errorMessage).toContain('questions.QID1.choices');
  });
});

describe('GET /v3/surveys', () => {
  it('pages the organisation’s surveys with every field of the list element', async () => {
    const own = await t.newOrganization();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await importSmallSurvey(t, own.apiToken, { name: `S${i}` }));
    const first = await t.call(own.apiToken, 'GET', '/API/v3/surveys?pageSize=2');
    expect(first.body.result.elements).toHaveLength(2);
    expect(Object.keys(first.body.result.elements[0]).sort()).toEqual(
      ['creationDate', 'id', 'isActive', 'lastModified', 'name', 'ownerId'].sort(),
    );
    const next = await t.call(
      own.apiToken,
      'GET',
      new URL(first.body.result.nextPage).pathname + new URL(first.body.result.nextPage).search,
    );
    expect(next.body.result.nextPage).toBeNull();
    expect(
      [...first.body.result.elements, ...next.body.result.elements].map((s: { id: string }) => s.id).sort(),
    ).toEqual(ids.sort());
  });

  it('shows a participant only the surveys they own (others are not found)', async () => {
    const own = await t.newOrganization();
    await importSmallSurvey(t, own.apiToken);
    const participant = await createUserWithToken(t, own.apiToken);
    const mine = await importSmallSurvey(t, participant.token);
    const list = await t.call(participant.token, 'GET', '/API/v3/surveys');
    expect(list.body.result.elements.map((s: { id: string }) => s.id)).toEqual([mine]);
    const adminSurvey = (await t.call(own.apiToken, 'GET', '/API/v3/surveys')).body.result.elements.find(
      (s: { id: string }) => s.id !== mine,
    );
    // Not shared with the participant: not found, as a survey of another organisation (issue 15 part 5).
    expect((await t.call(participant.token, 'GET', `/API/v3/surveys/${adminSurvey.id}`)).status).toBe(404);
  });
});

describe('PUT /v3/surveys/{id}', () => {
  it('activation and deactivation each deliver exactly one event to a subscriber of controlpanel.*', async () => {
    const own = await t.newOrganization();
    const r = await startWebhookReceiver();
    receivers.push(r);
    await t.call(own.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: r.url,
      topics: 'controlpanel.*',
    });
    const id = await importSmallSurvey(t, own.apiToken);
    const put = (body: unknown) => t.call(own.apiToken, 'PUT', `/API/v3/surveys/${id}`, body);

    expect((await put({ isActive: true })).status).toBe(200);
    expect((await put({ isActive: true })).status).toBe(200); // no change, no event
    expect((await put({ name: 'Renamed' })).status).toBe(200);
    expect((await put({ isActive: false })).status).toBe(200);
    await worker.deliverDue();

    // Deliveries go out concurrently: compare them in topic order, not arrival order.
    const messages = r.received.map((x) => ({
      topic: x.form.get('Topic'),
      msg: JSON.parse(x.form.get('MSG') ?? '{}'),
    }));
    messages.sort((x, y) => String(x.topic).localeCompare(String(y.topic)));
    expect(messages).toEqual([
      {
        topic: `${own.brandId}.controlpanel.activateSurvey`,
        msg: { Status: 'Active', SurveyID: id, BrandID: own.brandId },
      },
      {
        topic: `${own.brandId}.controlpanel.deactivateSurvey`,
        msg: { Status: 'Inactive', SurveyID: id, BrandID: own.brandId },
      },
    ]);
    const survey = (await t.call(own.apiToken, 'GET', `/API/v3/surveys/${id}`)).body.result;
    expect(survey).toMatchObject({ name: 'Renamed', isActive: false });

    // A survey created active (a multipart field is text) is activated once, at creation.
    const active = await importSmallSurvey(t, own.apiToken, { isActive: 'true' });
    await worker.deliverDue();
    expect(r.received).toHaveLength(3);
    const created = r.received
      .map((x) => JSON.parse(x.form.get('MSG') ?? '{}'))
      .filter((m) => m.SurveyID === active);
    expect(created).toEqual([{ Status: 'Active', SurveyID: active, BrandID: own.brandId }]);
    expect((await t.call(own.apiToken, 'GET', `/API/v3/surveys/${active}`)).body.result.isActive).toBe(true);
  });

  it('sets the expiration and the owner, and refuses bad values naming the field', async () => {
    const own = await t.newOrganization();
    const id = await importSmallSurvey(t, own.apiToken);
    const newOwner = await createUserWithToken(t, own.apiToken);
    const put = (body: unknown) => t.call(own.apiToken, 'PUT', `/API/v3/surveys/${id}`, body);
    expect(
      (
        await put({
          expiration: { startDate: '2026-05-01T00:00:00Z', endDate: '2026-06-01T12:00:00.000Z' },
          ownerId: newOwner.userId,
        })
      ).status,
    ).toBe(200);
    const survey = (await t.call(own.apiToken, 'GET', `/API/v3/surveys/${id}`)).body.result;
    expect(survey.expiration).toEqual({ startDate: '2026-05-01T00:00:00Z', endDate: '2026-06-01T12:00:00Z' });
    expect(survey.ownerId).toBe(newOwner.userId);

    const badDate = await put({ expiration: { endDate: 'soon' } });
    expect(badDate.status).toBe(400);
    expect(badDate.body.meta.error.errorMessage).toContain('expiration.endDate');
    const backwards = await put({ expiration: { endDate: '2026-04-01T00:00:00Z' } });
    expect(backwards.body.meta.error.errorMessage).toContain('expiration.endDate');
    const stranger = await put({ ownerId: 'UR_nobodynobody12' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.meta.error.errorMessage).toContain('ownerId');
    const wrongType = await put({ isActive: 'perhaps' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.meta.error.errorMessage).toContain('isActive');
    expect(
      (await t.call(own.apiToken, 'PUT', '/API/v3/surveys/SV_nothinghere1234', { name: 'x' })).body.meta.error
        .errorCode,
    ).toBe('GSI_2');
  });
});

describe('DELETE /v3/surveys/{id} and quotas', () => {
  it('lists quotas with condition, limit and current count', async () => {
    const id = await importSmallSurvey(t, org.apiToken);
    const quotas = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}/quotas`);
    expect(quotas.status).toBe(200);
    expect(quotas.body.result.nextPage).toBeNull();
    expect(quotas.body.result.elements).toEqual([
      expect.objectContaining({
        id: 'QO_aaaaaaaaaaaaaa1',
        name: 'Apple lovers',
        limit: 2,
        count: 0,
        isFull: false,
      }),
      expect.objectContaining({
        id: 'QO_aaaaaaaaaaaaaa2',
        name: 'Everyone',
        limit: 100,
        count: 0,
        condition: null,
      }),
    ]);
    expect(quotas.body.result.elements[0].condition.Type).toBe('BooleanExpression');
    for (const fruit of [10, 10, 20]) {
      await t.call(org.apiToken, 'POST', `/API/v3/surveys/${id}/responses`, { values: { QID1: fruit } });
    }
    const after = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}/quotas`)).body.result.elements;
    expect(after.map((q: { count: number; isFull: boolean }) => [q.count, q.isFull])).toEqual([
      [2, true],
      [3, false],
    ]);
  });

  it('deletes a survey with its responses; it is gone afterwards', async () => {
    const id = await importSmallSurvey(t, org.apiToken);
    await t.call(org.apiToken, 'POST', `/API/v3/surveys/${id}/responses`, { values: { QID1: 10 } });
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/surveys/${id}`)).status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('GSI_2');
    expect((await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}/quotas`)).status).toBe(404);
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/surveys/${id}`)).status).toBe(404);
  });
});
