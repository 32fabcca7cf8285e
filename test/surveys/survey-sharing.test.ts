import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { startExportWorker, unzip, waitForExport } from '../exports/exports-helpers.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from './survey-helpers.js';

/**
 * Survey sharing (issue 15 part 5): the owner shares a survey with a user or a group with named
 * permissions; the recipient sees it and acts on it as the permissions allow (403 naming the one
 * missing), a user it is not shared with gets 404 on every survey route, and unsharing takes it away.
 */
let t: TestApp;
let org: BootstrapResult;
let owner: { userId: string; token: string };
let reader: { userId: string; token: string };
let editor: { userId: string; token: string };
let outsider: { userId: string; token: string };
let grouped: { userId: string; token: string };
let surveyId: string;
let responseId: string;

const share = (token: string, recipientId: string, permissions: unknown, survey = surveyId) =>
  t.call(token, 'POST', `/API/v3/surveys/${survey}/permissions/collaborations`, { recipientId, permissions });

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  owner = await createUserWithToken(t, org.apiToken);
  reader = await createUserWithToken(t, org.apiToken);
  editor = await createUserWithToken(t, org.apiToken);
  outsider = await createUserWithToken(t, org.apiToken);
  grouped = await createUserWithToken(t, org.apiToken);
  surveyId = await importSmallSurvey(t, owner.token);
  const posted = await t.call(owner.token, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
    values: { QID1: 10, ipAddress: '203.0.113.9' },
  });
  expect(posted.status).toBe(200);
  responseId = posted.body.result.responseId;
});
afterAll(async () => {
  await worker?.stop();
  await t.close();
});
let worker: JobWorker | undefined;

describe('POST /v3/surveys/{surveyId}/permissions/collaborations', () => {
  it('shares with a user: the survey is listed and readable, with its responses', async () => {
    expect((await t.call(reader.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
    const res = await share(owner.token, reader.userId, {
      result: { viewSurveyResults: true, downloadSurveyResults: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.httpStatus).toBe('200 - OK');
    const list = await t.call(reader.token, 'GET', '/API/v3/surveys');
    expect(list.body.result.elements.map((s: { id: string }) => s.id)).toEqual([surveyId]);
    expect((await t.call(reader.token, 'GET', `/API/v3/surveys/${surveyId}`)).body.result.id).toBe(surveyId);
    const response = await t.call(reader.token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(response.status).toBe(200);
    expect(response.body.result.values.QID1).toBe(10);
    const exported = await t.call(reader.token, 'POST', `/API/v3/surveys/${surveyId}/export-responses`, {
      format: 'csv',
    });
    expect(exported.status).toBe(200);
    const progress = await t.call(
      reader.token,
      'GET',
      `/API/v3/surveys/${surveyId}/export-responses/${exported.body.result.progressId}`,
    );
    expect(progress.status).toBe(200);
  });

  it('refuses what the permissions do not grant with 403 naming the permission, and changes nothing', async () => {
    const before = (await t.call(owner.token, 'GET', `/API/v3/surveys/${surveyId}`)).body.result;
    const attempts: [string, string, unknown, string][] = [
      ['PUT', `/API/v3/surveys/${surveyId}`, { name: 'Renamed' }, 'surveyManagement.editSurveys'],
      ['PUT', `/API/v3/surveys/${surveyId}`, { isActive: true }, 'surveyManagement.activateSurveys'],
      ['DELETE', `/API/v3/surveys/${surveyId}`, undefined, 'surveyManagement.deleteSurveys'],
      [
        'POST',
        `/API/v3/surveys/${surveyId}/responses`,
        { values: { QID1: 20 } },
        'response.editSurveyResponses',
      ],
      [
        'DELETE',
        `/API/v3/surveys/${surveyId}/responses/${responseId}`,
        undefined,
        'response.editSurveyResponses',
      ],
      [
        'PUT',
        `/API/v3/survey-definitions/${surveyId}/questions/QID1`,
        { QuestionText: 'Changed', QuestionType: 'TE', Selector: 'SL' },
        'surveyDefinitionManipulation.editQuestions',
      ],
      [
        'POST',
        `/API/v3/survey-definitions/${surveyId}/versions`,
        { Description: 'v', Published: true },
        'surveyManagement.editSurveys',
      ],
      [
        'POST',
        '/API/v3/distributions',
        {
          surveyLink: { surveyId, type: 'Individual' },
          header: { fromEmail: 'a@example.com', fromName: 'A', subject: 'S' },
          message: { messageText: 'Hi' },
          recipients: { mailingListId: 'ML_none' },
          sendDate: '2030-01-01T00:00:00Z',
        },
        'surveyManagement.distributeSurveys',
      ],
    ];
    for (const [method, url, body, permission] of attempts) {
      const res = await t.call(reader.token, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.meta.error.errorMessage).toContain(permission);
    }
    // Sharing it on and giving it away are the owner's.
    expect((await share(reader.token, editor.userId, { result: { viewSurveyResults: true } })).status).toBe(
      403,
    );
    expect((await t.call(owner.token, 'GET', `/API/v3/surveys/${surveyId}`)).body.result).toEqual(before);
    expect(
      (await t.call(owner.token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).status,
    ).toBe(200);
  });

  it('lets a collaborator with the flags edit, activate and record, but not give the survey away', async () => {
    const res = await share(owner.token, editor.userId, {
      surveyManagement: { editSurveys: true, activateSurveys: true },
      response: { editSurveyResponses: true },
      surveyDefinitionManipulation: { editQuestions: true },
    });
    expect(res.status).toBe(200);
    expect(
      (await t.call(editor.token, 'PUT', `/API/v3/surveys/${surveyId}`, { name: 'Edited' })).status,
    ).toBe(200);
    expect(
      (await t.call(editor.token, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: true })).status,
    ).toBe(200);
    // Deactivating is its own flag.
    const off = await t.call(editor.token, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: false });
    expect(off.status).toBe(403);
    expect(off.body.meta.error.errorMessage).toContain('surveyManagement.deactivateSurveys');
    const posted = await t.call(editor.token, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
      values: { QID1: 20 },
    });
    expect(posted.status).toBe(200);
    // Recording is not reading: the editor was not given viewSurveyResults.
    const read = await t.call(
      editor.token,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${posted.body.result.responseId}`,
    );
    expect(read.status).toBe(403);
    expect(
      (await t.call(editor.token, 'PUT', `/API/v3/surveys/${surveyId}`, { ownerId: editor.userId })).status,
    ).toBe(403);
    const survey = (await t.call(owner.token, 'GET', `/API/v3/surveys/${surveyId}`)).body.result;
    expect(survey).toMatchObject({ name: 'Edited', isActive: true, ownerId: owner.userId });
  });

  it('shares with a group: its members see the survey, others do not', async () => {
    const group = await t.call(org.apiToken, 'POST', '/API/v3/groups', { name: `Readers ${Date.now()}` });
    expect(group.status).toBe(200);
    const groupId = group.body.result.id;
    expect(
      (await t.call(org.apiToken, 'POST', `/API/v3/groups/${groupId}/members`, { userId: grouped.userId }))
        .status,
    ).toBe(200);
    expect((await t.call(grouped.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
    expect((await share(owner.token, groupId, { result: { viewSurveyResults: true } })).status).toBe(200);
    expect((await t.call(grouped.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(200);
    expect(
      (await t.call(grouped.token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).status,
    ).toBe(200);
    expect((await t.call(outsider.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
    const list = await t.call(owner.token, 'GET', `/API/v3/surveys/${surveyId}/permissions/collaborations`);
    expect(list.body.result.elements.map((c: { recipientId: string }) => c.recipientId)).toEqual(
      expect.arrayContaining([reader.userId, editor.userId, groupId]),
    );
    const asGroup = list.body.result.elements.find((c: { recipientId: string }) => c.recipientId === groupId);
    expect(asGroup).toMatchObject({ recipientType: 'group', sharedBy: owner.userId });
    expect(asGroup.permissions.result.viewSurveyResults).toBe(true);
    expect(asGroup.permissions.result.downloadSurveyResults).toBe(false);
  });

  it('accepts the permissions wrapped in SurveyPermissions, and names the flags it ignores', async () => {
    const res = await share(owner.token, outsider.userId, {
      SurveyPermissions: {
        result: { viewSurveyResults: true, seeTheFuture: true },
        collaborate: { x: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.notice).toContain('permissions.result.seeTheFuture');
    expect(res.body.meta.notice).toContain('permissions.collaborate');
    expect(
      (await t.call(outsider.token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).status,
    ).toBe(200);
    // Sharing again replaces the permissions.
    expect((await share(owner.token, outsider.userId, { result: { viewSurveyResults: false } })).status).toBe(
      200,
    );
    expect(
      (await t.call(outsider.token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).status,
    ).toBe(403);
  });

  it('unsharing takes the survey away (404), and a second unshare is FW_SHR_1', async () => {
    const url = `/API/v3/surveys/${surveyId}/permissions/collaborations/${outsider.userId}`;
    expect((await t.call(owner.token, 'DELETE', url)).status).toBe(200);
    expect((await t.call(outsider.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
    const again = await t.call(owner.token, 'DELETE', url);
    expect(again.status).toBe(404);
    expect(again.body.meta.error.errorCode).toBe('FW_SHR_1');
  });

  it('refuses bad requests naming the field, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ recipientId: 'UR_nobodynobody12', permissions: {} }, 'recipientId'],
      [{ recipientId: 'GR_nogroupnogroup', permissions: {} }, 'recipientId'],
      [{ recipientId: owner.userId, permissions: {} }, 'recipientId'],
      [
        { recipientId: outsider.userId, permissions: { result: { viewSurveyResults: 'yes' } } },
        'viewSurveyResults',
      ],
      [{ recipientId: outsider.userId, permissions: { result: true } }, 'result'],
      [{ recipientId: outsider.userId }, 'permissions'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(
        owner.token,
        'POST',
        `/API/v3/surveys/${surveyId}/permissions/collaborations`,
        body,
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.meta.error.errorMessage).toContain(field);
    }
    expect((await t.call(outsider.token, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
  });

  it("cannot share another organisation's survey, nor with another organisation's user", async () => {
    const other = await t.newOrganization();
    const theirs = await importSmallSurvey(t, other.apiToken);
    const res = await share(org.apiToken, reader.userId, { result: { viewSurveyResults: true } }, theirs);
    expect(res.status).toBe(404);
    const across = await share(owner.token, other.userId, { result: { viewSurveyResults: true } });
    expect(across.status).toBe(400);
    expect((await t.call(other.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).status).toBe(404);
  });
});

describe('result.viewPersonalData', () => {
  /** Exports the survey as csv with the caller's token and answers the csv's first line (the column names). */
  async function exportedHeader(token: string): Promise<string[]> {
    worker ??= startExportWorker(t);
    const base = `/API/v3/surveys/${surveyId}/export-responses`;
    const started = await t.call(token, 'POST', base, { format: 'csv', compress: false });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const url = `${base}/${started.body.result.progressId}`;
    const { last } = await waitForExport(t, token, url);
    expect(last.body.result.status).toBe('complete');
    const file = await t.app.inject({ method: 'GET', url: `${url}/file`, headers: { 'x-api-token': token } });
    expect(file.statusCode).toBe(200);
    const text = file.headers['content-type']?.toString().includes('zip')
      ? ([...(await unzip(file.rawPayload)).values()][0]?.toString('utf8') ?? '')
      : file.body;
    return (text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '').split(',');
  }

  it('without it, a response reads and exports without the IP address and contact details', async () => {
    const viewer = await createUserWithToken(t, org.apiToken);
    await share(owner.token, viewer.userId, {
      result: { viewSurveyResults: true, downloadSurveyResults: true },
    });
    const url = `/API/v3/surveys/${surveyId}/responses/${responseId}`;
    const asOwner = (await t.call(owner.token, 'GET', url)).body.result;
    expect(asOwner.values.ipAddress).toBe('203.0.113.9');
    const asViewer = (await t.call(viewer.token, 'GET', url)).body.result;
    expect(asViewer.values.QID1).toBe(10);
    expect(asViewer.values).not.toHaveProperty('ipAddress');
    expect(asViewer.displayedFields).not.toContain('ipAddress');
    const personal = [
      'IPAddress',
      'RecipientLastName',
      'RecipientFirstName',
      'RecipientEmail',
      'ExternalReference',
      'LocationLatitude',
      'LocationLongitude',
    ];
    const ownerHeader = await exportedHeader(owner.token);
    expect(ownerHeader).toEqual(expect.arrayContaining(personal));
    // The same columns, in the same order, less the personal ones.
    expect(await exportedHeader(viewer.token)).toEqual(ownerHeader.filter((c) => !personal.includes(c)));

    await share(owner.token, viewer.userId, {
      result: { viewSurveyResults: true, downloadSurveyResults: true, viewPersonalData: true },
    });
    expect((await t.call(viewer.token, 'GET', url)).body.result.values.ipAddress).toBe('203.0.113.9');
    expect(await exportedHeader(viewer.token)).toContain('IPAddress');
  });
});
