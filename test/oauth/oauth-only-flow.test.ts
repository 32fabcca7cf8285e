import { afterAll, beforeAll, expect, it } from 'vitest';
import { startImportWorker } from '../contacts/contacts-helpers.js';
import { startExportWorker, unzip } from '../exports/exports-helpers.js';
import { pollUntil } from '../helpers/poll.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { multipartBody, SMALL_QSF } from '../surveys/survey-helpers.js';
import { accessToken, bearerCall, createClient } from './oauth-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Waits for a job's progress URL to leave `inProgress`, polling with the bearer token only. */
function finished(token: string, url: string) {
  return pollUntil(`${url} finished`, async () => {
    const res = await bearerCall(t, token, 'GET', url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.status === 'inProgress' ? undefined : res.body.result;
  });
}

// Issue 17 acceptance: what an API-token client does (test/jobs/private-files.test.ts, test/fuzz/world.ts),
// done by an OAuth client with the scopes of the families it touches and no X-API-TOKEN anywhere.
it('an OAuth client alone imports contacts, uploads a survey, records a response and exports it', async () => {
  const org = await t.newOrganization({ targetAudience: true });
  const client = await createClient(t, org.apiToken, [
    'read:directories',
    'read:mailing_lists',
    'write:mailing_lists',
    'read:mailing_list_contacts',
    'write:mailing_list_contacts',
    'read:surveys',
    'write:surveys',
    'read:survey_responses',
    'write:survey_responses',
  ]);
  const token = await accessToken(t, client);
  // One job worker at a time: each knows its own kind of job only.
  let worker = startImportWorker(t);
  try {
    const directories = await bearerCall(t, token, 'GET', '/API/v3/directories');
    expect(directories.status).toBe(200);
    const directoryId = directories.body.result.elements[0].directoryId as string;
    expect(directoryId).toBe(org.directoryId);

    const list = await bearerCall(t, token, 'POST', `/API/v3/directories/${directoryId}/mailinglists`, {
      name: 'OAuth panel',
    });
    expect(list.status).toBe(200);
    const lists = `/API/v3/directories/${directoryId}/mailinglists/${list.body.result.id}`;
    const started = await bearerCall(t, token, 'POST', `${lists}/contactimports`, [
      { firstName: 'Ada', email: 'ada@oauth.example' },
      { firstName: 'Grace', email: 'grace@oauth.example' },
    ]);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const imported = await finished(token, `${lists}/contactimports/${started.body.result.id}`);
    expect(imported.contacts.count).toEqual({ added: 2, updated: 0, failed: 0 });
    await worker.stop();
    worker = startExportWorker(t);
    const contacts = await bearerCall(t, token, 'GET', `${lists}/contacts`);
    expect(contacts.body.result.elements.map((c: { email: string }) => c.email).sort()).toEqual([
      'ada@oauth.example',
      'grace@oauth.example',
    ]);

    const qsf = multipartBody(SMALL_QSF);
    const survey = await bearerCall(t, token, 'POST', '/API/v3/surveys', qsf.body, {
      'content-type': qsf.contentType,
    });
    expect(survey.status, JSON.stringify(survey.body)).toBe(200);
    const surveyId = survey.body.result.id as string;
    const values = { QID1: '30', QID1_3_TEXT: 'Cherry', QID2_1: 1, QID3_TEXT: 'OAuth answer', QID5: 9 };
    const response = await bearerCall(t, token, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(response.status, JSON.stringify(response.body)).toBe(200);

    const exports = `/API/v3/surveys/${surveyId}/export-responses`;
    const progress = await bearerCall(t, token, 'POST', exports, { format: 'csv' });
    expect(progress.status, JSON.stringify(progress.body)).toBe(200);
    const done = await finished(token, `${exports}/${progress.body.result.progressId}`);
    expect(done.status, JSON.stringify(done)).toBe('complete');
    const file = await t.app.inject({
      method: 'GET',
      url: `${exports}/${done.fileId}/file`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(file.statusCode).toBe(200);
    const [csv] = [...(await unzip(file.rawPayload)).values()];
    expect(String(csv)).toContain('OAuth answer');
    expect(String(csv)).toContain(response.body.result.responseId);
  } finally {
    await worker.stop();
  }
});
