import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import {
  cutResponseEventContext,
  recordCompletedResponse,
} from '../../src/modules/responses/record-response.js';
import { streamSurveyResponses } from '../../src/modules/responses/responses.service.js';
import { loadSurveyForTaking, surveyAvailability } from '../../src/modules/surveys/survey-taking.service.js';
import { eventsTestApp, testWorker } from '../events/event-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { importSmallSurvey } from './survey-helpers.js';

let t: TestApp;
let clock: Awaited<ReturnType<typeof eventsTestApp>>['clock'];
let org: BootstrapResult;
let worker: DeliveryWorker;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ({ t, clock } = await eventsTestApp());
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

const post = (token: string, surveyId: string, values: Record<string, unknown>) =>
  t.call(token, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
const counts = async (token: string, surveyId: string, userId: string) => ({
  survey: (await t.call(token, 'GET', `/API/v3/surveys/${surveyId}`)).body.result.responseCounts,
  owner: (await t.call(token, 'GET', `/API/v3/users/${userId}`)).body.result.responseCounts,
});

describe('POST and GET responses', () => {
  it('records a response with values, labels and metadata, readable at both spellings of the path', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const created = await post(org.apiToken, surveyId, {
      QID1: '30',
      QID1_3_TEXT: 'Cherry',
      QID2_1: 1,
      QID2_2: 0,
      QID3_TEXT: 'Lovely',
      QID4_1: 5,
      QID4_2: '1',
      QID5: 6,
      panel: 'autumn',
      startDate: '2026-03-01T11:59:00Z',
      userLanguage: 'EN',
    });
    expect(created.status).toBe(200);
    const responseId = created.body.result.responseId;
    expect(responseId).toMatch(/^R_[A-Za-z0-9]{15}$/);

    for (const prefix of ['/API/v3', '/API/API/v3']) {
      const got = await t.call(org.apiToken, 'GET', `${prefix}/surveys/${surveyId}/responses/${responseId}`);
      expect(got.status, prefix).toBe(200);
      expect(got.body.result.responseId).toBe(responseId);
    }
    const { result } = (
      await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)
    ).body;
    expect(result.values).toEqual({
      startDate: '2026-03-01T11:59:00Z',
      endDate: '2026-03-01T12:00:00Z',
      status: 0,
      ipAddress: null,
      progress: 100,
      duration: 60,
      finished: 1,
      recordedDate: '2026-03-01T12:00:00Z',
      _recordId: responseId,
      locationLatitude: null,
      locationLongitude: null,
      distributionChannel: 'anonymous',
      userLanguage: 'EN',
      QID1: 30,
      QID1_3_TEXT: 'Cherry',
      QID2_1: 1,
      QID3_TEXT: 'Lovely',
      QID4_1: 5,
      QID4_2: 1,
      QID5: 6,
      QID5_NPS_GROUP: 1,
      panel: 'autumn',
    });
    expect(result.labels).toMatchObject({
      status: 'IP Address',
      finished: 'True',
      QID1: 'Other',
      QID2_1: 'Red',
      QID4_1: 'Good',
      QID4_2: 'Bad',
      QID5_NPS_GROUP: 'Detractor',
    });
    expect(result.displayedFields).toContain('QID4_2');
    expect(result.displayedValues.QID1).toEqual([10, 20, 30]);
  });

  it('refuses values that do not fit the survey, naming the key, and records nothing', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const before = await counts(org.apiToken, surveyId, org.userId);
    for (const [values, field] of [
      [{ QID99: 1 }, 'values.QID99'],
      [{ QID1: 11 }, 'values.QID1'],
      [{ QID2_1: 'yes' }, 'values.QID2_1'],
      [{ QID4_1: 3 }, 'values.QID4_1'],
      [{ panel: { nested: true } }, 'values.panel'],
      [{ progress: 101 }, 'values.progress'],
      [{ startDate: 'yesterday' }, 'values.startDate'],
      [{ ResponseEventContext: 'x'.repeat(51) }, 'values.ResponseEventContext'],
    ] as const) {
      const res = await post(org.apiToken, surveyId, values);
      expect(res.status, field).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain(field);
    }
    const missing = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {});
    expect(missing.body.meta.error.errorMessage).toContain('values');
    expect(await counts(org.apiToken, surveyId, org.userId)).toEqual(before);
    expect((await post(org.apiToken, 'SV_nothinghere1234', {})).body.meta.error.errorCode).toBe('GSI_2');
  });

  it('delivers surveyengine.completedResponse with the response id, context and completion date', async () => {
    const own = await t.newOrganization();
    const r = await startWebhookReceiver();
    receivers.push(r);
    const surveyId = await importSmallSurvey(t, own.apiToken);
    await t.call(own.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: r.url,
      topics: `surveyengine.completedResponse.${surveyId}`,
    });
    const context = 'c'.repeat(50);
    const created = await post(own.apiToken, surveyId, { QID1: 10, ResponseEventContext: context });
    await worker.deliverDue();
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.form.get('Topic')).toBe(
      `${own.brandId}.surveyengine.completedResponse.${surveyId}`,
    );
    expect(JSON.parse(r.received[0]?.form.get('MSG') ?? '')).toEqual({
      Status: 'Complete',
      SurveyID: surveyId,
      ResponseID: created.body.result.responseId,
      ResponseEventContext: context,
      CompletedDate: '2026-03-01 12:00:00',
      BrandID: own.brandId,
    });
  });
});

describe('responseCounts, PUT and DELETE', () => {
  it('keeps the survey’s and the owner’s auditable, generated and deleted counts true', async () => {
    const own = await t.newOrganization();
    const surveyId = await importSmallSurvey(t, own.apiToken);
    const real = (await post(own.apiToken, surveyId, { QID1: 10 })).body.result.responseId;
    await post(own.apiToken, surveyId, { QID1: 20 });
    await post(own.apiToken, surveyId, { QID1: 20, status: 2 });
    expect(await counts(own.apiToken, surveyId, own.userId)).toEqual({
      survey: { auditable: 2, generated: 1, deleted: 0 },
      owner: { auditable: 2, generated: 1, deleted: 0 },
    });
    const del = await t.call(
      own.apiToken,
      'DELETE',
      `/API/v3/surveys/${surveyId}/responses/${real}?decrementQuotas=true`,
    );
    expect(del.status).toBe(200);
    expect(await counts(own.apiToken, surveyId, own.userId)).toEqual({
      survey: { auditable: 1, generated: 1, deleted: 1 },
      owner: { auditable: 1, generated: 1, deleted: 1 },
    });
    const quotas = (await t.call(own.apiToken, 'GET', `/API/v3/surveys/${surveyId}/quotas`)).body.result
      .elements;
    expect(quotas.map((q: { count: number }) => q.count)).toEqual([0, 2]);
    const again = await t.call(own.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${real}`);
    expect(again.status).toBe(404);
    expect(again.body.meta.error.errorCode).toBe('FW_RSP_1');

    // Deleting the survey moves its remaining responses to the owner's deleted count.
    await t.call(own.apiToken, 'DELETE', `/API/v3/surveys/${surveyId}`);
    const user = (await t.call(own.apiToken, 'GET', `/API/v3/users/${own.userId}`)).body.result;
    expect(user.responseCounts).toEqual({ auditable: 0, generated: 0, deleted: 3 });
  });

  it('updates embedded data and values with PUT /v3/responses/{id}, relabelling them', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const responseId = (await post(org.apiToken, surveyId, { QID1: 10, QID3_TEXT: 'old', panel: 'a' })).body
      .result.responseId;
    const put = await t.call(org.apiToken, 'PUT', `/API/v3/responses/${responseId}`, {
      surveyId,
      embeddedData: { panel: 'b', wave: '2' },
      values: { QID1: 20, QID3_TEXT: null },
    });
    expect(put.status).toBe(200);
    expect(put.body.result).toBeUndefined();
    const { result } = (
      await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)
    ).body;
    expect(result.values).toMatchObject({ QID1: 20, panel: 'b', wave: '2' });
    expect(result.values).not.toHaveProperty('QID3_TEXT');
    expect(result.labels.QID1).toBe('Banana');
    const quotas = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/quotas`)).body.result
      .elements;
    expect(quotas.map((q: { count: number }) => q.count)).toEqual([0, 1]);

    const tooLong = await t.call(org.apiToken, 'PUT', `/API/v3/responses/${responseId}`, {
      embeddedData: { ResponseEventContext: 'y'.repeat(51) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.meta.error.errorMessage).toContain('ResponseEventContext');
    const metadata = await t.call(org.apiToken, 'PUT', `/API/v3/responses/${responseId}`, {
      values: { status: 8 },
    });
    expect(metadata.body.meta.error.errorMessage).toContain('values.status');
    const unknown = await t.call(org.apiToken, 'PUT', '/API/v3/responses/R_nothinghere1234', {
      embeddedData: {},
    });
    expect(unknown.status).toBe(404);
    const otherSurvey = await t.call(org.apiToken, 'PUT', `/API/v3/responses/${responseId}`, {
      surveyId: 'SV_nothinghere1234',
      embeddedData: {},
    });
    expect(otherSurvey.status).toBe(404);
  });
});

describe('the functions the survey-taking engine and exports use', () => {
  it('loads a survey for taking, records an engine completion once per session, and streams responses in order', async () => {
    const own = await t.newOrganization();
    const r = await startWebhookReceiver();
    receivers.push(r);
    await t.call(own.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: r.url,
      topics: 'surveyengine.*',
    });
    const surveyId = await importSmallSurvey(t, own.apiToken);
    const survey = await loadSurveyForTaking(t.database.db, surveyId);
    if (!survey) throw new Error('survey not loaded');
    expect(survey.organizationId).toBe(own.brandId);
    expect(surveyAvailability(survey, clock.now())).toBe('inactive');
    expect(surveyAvailability({ ...survey, isActive: true }, clock.now())).toBe('open');
    expect(
      surveyAvailability(
        { isActive: true, expiration: { startDate: null, endDate: '2026-01-01T00:00:00Z' } },
        clock.now(),
      ),
    ).toBe('expired');
    expect(await loadSurveyForTaking(t.database.db, 'SV_nothinghere1234')).toBeUndefined();

    const embeddedData = cutResponseEventContext({ ResponseEventContext: 'e'.repeat(80) });
    expect(embeddedData.ResponseEventContext).toHaveLength(50);
    const record = (sessionId: string, answers: Record<string, string | number>) =>
      t.database.db.transaction().execute((trx) =>
        recordCompletedResponse(
          trx,
          { organizationId: survey.organizationId },
          {
            surveyId,
            answers,
            embeddedData,
            now: clock.now(),
            recipientId: 'CID_aaaaaaaaaaaaaaa',
            distributionId: 'EMD_aaaaaaaaaaaaaaa',
            distributionChannel: 'email',
            sessionId,
            userAgent: 'test-agent',
          },
        ),
      );
    const first = await record('FS_aaaaaaaaaaaaaa1', { QID1: 10 });
    expect(first.quotas).toEqual(['QO_aaaaaaaaaaaaaa1', 'QO_aaaaaaaaaaaaaa2']);
    await expect(record('FS_aaaaaaaaaaaaaa1', { QID1: 20 })).rejects.toMatchObject({ code: 'FW_RSP_2' });
    const second = await record('FS_aaaaaaaaaaaaaa2', { QID1: 20 });

    await worker.deliverDue();
    const messages = r.received.map((x) => JSON.parse(x.form.get('MSG') ?? '{}'));
    // Deliveries go out concurrently, so their arrival order is not the completion order.
    expect(messages.map((m) => m.ResponseID).sort()).toEqual([first.responseId, second.responseId].sort());
    expect(messages.find((m) => m.ResponseID === first.responseId)).toMatchObject({
      RecipientID: 'CID_aaaaaaaaaaaaaaa',
      DistributionID: 'EMD_aaaaaaaaaaaaaaa',
      ResponseEventContext: 'e'.repeat(50),
    });

    const streamed: string[] = [];
    for await (const row of streamSurveyResponses(
      t.database.db,
      { organizationId: own.brandId },
      surveyId,
      1,
    )) {
      streamed.push(row.id);
    }
    expect(streamed).toEqual([first.responseId, second.responseId]);
  });
});
