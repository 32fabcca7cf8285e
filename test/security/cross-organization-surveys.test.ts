import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { recordCompletedResponse } from '../../src/modules/responses/record-response.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * A token of organisation B can never read or change organisation A's surveys or responses. Every survey
 * and response route is tried with B's administrator token against A's resources; each attempt fails as
 * if the resource did not exist, and A's survey, its responses and its counts are unchanged afterwards.
 */
let t: TestApp;
let a: BootstrapResult;
let b: BootstrapResult;
let aSurvey: string;
let aResponse: string;
let bSurvey: string;
let aProgress: string;
let aSession: string;
/** A participant of organisation A with whom A's survey is not shared (issue 15 part 5). */
let aStranger: { userId: string; token: string };

beforeAll(async () => {
  t = await buildTestApp();
  a = await t.newOrganization();
  b = await t.newOrganization();
  aSurvey = await importSmallSurvey(t, a.apiToken);
  aResponse = (
    await t.call(a.apiToken, 'POST', `/API/v3/surveys/${aSurvey}/responses`, { values: { QID1: 10 } })
  ).body.result.responseId;
  bSurvey = await importSmallSurvey(t, b.apiToken);
  aProgress = (
    await t.call(a.apiToken, 'POST', `/API/v3/surveys/${aSurvey}/update-responses`, {
      updates: [{ responseId: aResponse, embeddedData: { panel: 'A' } }],
    })
  ).body.result.progressId;
  // A session taken through the API (issue 15): the survey takes responses only while active.
  await t.call(a.apiToken, 'PUT', `/API/v3/surveys/${aSurvey}`, { isActive: true });
  aSession = (await t.call(a.apiToken, 'POST', `/API/v3/surveys/${aSurvey}/sessions`, { language: 'EN' }))
    .body.result.sessionId;
  expect(aSession).toMatch(/^FS_/);
  aStranger = await createUserWithToken(t, a.apiToken);
});
afterAll(() => t.close());

const snapshot = async () => ({
  survey: (await t.call(a.apiToken, 'GET', `/API/v3/surveys/${aSurvey}`)).body.result,
  response: (await t.call(a.apiToken, 'GET', `/API/v3/surveys/${aSurvey}/responses/${aResponse}`)).body
    .result,
  quotas: (await t.call(a.apiToken, 'GET', `/API/v3/surveys/${aSurvey}/quotas`)).body.result,
  owner: (await t.call(a.apiToken, 'GET', `/API/v3/users/${a.userId}`)).body.result.responseCounts,
  session: (await t.call(a.apiToken, 'GET', `/API/v3/surveys/${aSurvey}/sessions/${aSession}`)).body.result,
});

describe("a token of organisation B against organisation A's surveys and responses", () => {
  const attempts: [string, string, () => string, (() => unknown)?][] = [
    ['GET', 'survey', () => `/API/v3/surveys/${aSurvey}`],
    ['PUT', 'survey', () => `/API/v3/surveys/${aSurvey}`, () => ({ isActive: true, name: 'Hijacked' })],
    ['DELETE', 'survey', () => `/API/v3/surveys/${aSurvey}`],
    ['GET', 'quotas', () => `/API/v3/surveys/${aSurvey}/quotas`],
    ['POST', 'response', () => `/API/v3/surveys/${aSurvey}/responses`, () => ({ values: { QID1: 20 } })],
    ['GET', 'response', () => `/API/v3/surveys/${aSurvey}/responses/${aResponse}`],
    ['GET', 'response (spec spelling)', () => `/API/API/v3/surveys/${aSurvey}/responses/${aResponse}`],
    ['GET', "response through B's survey", () => `/API/v3/surveys/${bSurvey}/responses/${aResponse}`],
    ['PUT', 'response', () => `/API/v3/responses/${aResponse}`, () => ({ embeddedData: { panel: 'B' } })],
    ['DELETE', 'response', () => `/API/v3/surveys/${aSurvey}/responses/${aResponse}`],
    ['DELETE', "response through B's survey", () => `/API/v3/surveys/${bSurvey}/responses/${aResponse}`],
    ['DELETE', 'response (legacy spelling)', () => `/API/v3/responses/${aResponse}?surveyId=${aSurvey}`],
    [
      'DELETE',
      "response (legacy spelling) through B's survey",
      () => `/API/v3/responses/${aResponse}?surveyId=${bSurvey}`,
    ],
    [
      'POST',
      'bulk response update',
      () => `/API/v3/surveys/${aSurvey}/update-responses`,
      () => ({ updates: [{ responseId: aResponse, embeddedData: { panel: 'B' } }] }),
    ],
    ['GET', 'bulk response update', () => `/API/v3/surveys/${aSurvey}/update-responses/${aProgress}`],
    [
      'GET',
      "bulk response update through B's survey",
      () => `/API/v3/surveys/${bSurvey}/update-responses/${aProgress}`,
    ],
    ['GET', 'survey definition', () => `/API/v3/survey-definitions/${aSurvey}?format=qsf`],
    [
      'PUT',
      'survey definition question',
      () => `/API/v3/survey-definitions/${aSurvey}/questions/QID1`,
      () => ({ QuestionText: 'Hijacked', QuestionType: 'TE', Selector: 'SL' }),
    ],
    [
      'PUT',
      'survey definition flow',
      () => `/API/v3/survey-definitions/${aSurvey}/flow`,
      () => ({ Flow: [] }),
    ],
    [
      'POST',
      'survey definition version (publishing)',
      () => `/API/v3/survey-definitions/${aSurvey}/versions`,
      () => ({ Description: 'Hijacked' }),
    ],
    ['POST', 'survey session', () => `/API/v3/surveys/${aSurvey}/sessions`, () => ({ language: 'EN' })],
    ['GET', 'survey session', () => `/API/v3/surveys/${aSurvey}/sessions/${aSession}`],
    [
      'POST',
      'survey session (advance)',
      () => `/API/v3/surveys/${aSurvey}/sessions/${aSession}`,
      () => ({ advance: true, responses: {} }),
    ],
    [
      'POST',
      'survey session (close)',
      () => `/API/v3/surveys/${aSurvey}/sessions/${aSession}`,
      () => ({ close: true }),
    ],
    ['DELETE', 'survey session', () => `/API/v3/surveys/${aSurvey}/sessions/${aSession}`],
    ['GET', "survey session through B's survey", () => `/API/v3/surveys/${bSurvey}/sessions/${aSession}`],
    [
      'POST',
      "survey session through B's survey (close)",
      () => `/API/v3/surveys/${bSurvey}/sessions/${aSession}`,
      () => ({ close: true }),
    ],
    ['DELETE', "survey session through B's survey", () => `/API/v3/surveys/${bSurvey}/sessions/${aSession}`],
  ];

  it.each(attempts)('%s %s answers 404', async (method, _what, url, body) => {
    const before = await snapshot();
    const res = await t.call(b.apiToken, method, url(), body?.());
    expect(res.status).toBe(404);
    expect(['GSI_2', 'FW_RSP_1', 'FW_RSP_3', 'FW_SES_1']).toContain(res.body.meta.error.errorCode);
    expect(await snapshot()).toEqual(before);
  });

  it.each(attempts)(
    '%s %s answers 404 to a participant of A the survey is not shared with',
    async (method, _what, url, body) => {
      const before = await snapshot();
      const res = await t.call(aStranger.token, method, url(), body?.());
      expect(res.status).toBe(404);
      expect(['GSI_2', 'FW_RSP_1', 'FW_RSP_3', 'FW_SES_1']).toContain(res.body.meta.error.errorCode);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("never lists A's surveys to B", async () => {
    const list = await t.call(b.apiToken, 'GET', '/API/v3/surveys');
    expect(list.body.result.elements.map((s: { id: string }) => s.id)).toEqual([bSurvey]);
  });

  it("does not let B's owner be given an A survey, nor an A user own B's survey", async () => {
    const res = await t.call(b.apiToken, 'PUT', `/API/v3/surveys/${bSurvey}`, { ownerId: a.userId });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toContain('ownerId');
  });

  it("records nothing when the engine's function is called with B's scope for A's survey", async () => {
    const before = await snapshot();
    await expect(
      t.database.db
        .transaction()
        .execute((trx) =>
          recordCompletedResponse(
            trx,
            { organizationId: b.brandId },
            { surveyId: aSurvey, answers: {}, now: new Date() },
          ),
        ),
    ).rejects.toMatchObject({ code: 'GSI_2' });
    expect(await snapshot()).toEqual(before);
  });
});
