import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { FormClient, hiddenValue } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { exportText, importFile, startWorker } from '../responseimports/imports-helpers.js';
import { call200, csvHeaders, defs, mcQuestion } from './definitions-helpers.js';

/**
 * Issue 15: a response carries the published version it was taken on (`surveyVersionId` beside its
 * `values`), and its labels are that version's: a choice reworded after publishing relabels no response
 * taken before. Browser pages and the sessions API record a session's version; the responses API and
 * response imports the version live when they record.
 */

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);
const form = (surveyId: string) => `/jfe/form/${surveyId}`;
const sessions = (surveyId: string) => `/API/v3/surveys/${surveyId}/sessions`;
const responseOf = async (surveyId: string, responseId: string) =>
  (await call('GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).result;
/** `POST …/sessions` answers 201 Created. */
async function startSession(surveyId: string) {
  const res = await t.call(org.apiToken, 'POST', sessions(surveyId), { language: 'EN' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result;
}
const publish = async (surveyId: string, description: string): Promise<string> =>
  (await call('POST', defs(surveyId, '/versions'), { Description: description })).result.metadata.versionID;

/** Pets: QID1 (Cat or Dog), a page break, QID2 (Indoors? Yes or No); active, and published as v1 when asked. */
async function petsSurvey(publishFirst = true): Promise<{ id: string; v1: string | null }> {
  const created = await call('POST', '/API/v3/survey-definitions', { SurveyName: 'Pets by version' });
  const { SurveyID: id, DefaultBlockID: block } = created.result;
  await call('POST', defs(id, '/questions'), mcQuestion('Cat or dog?', ['Cat', 'Dog']));
  await call('POST', defs(id, '/questions'), mcQuestion('Indoors?', ['Yes', 'No']));
  await call('PUT', defs(id, `/blocks/${block}`), {
    BlockElements: [
      { Type: 'Question', QuestionID: 'QID1' },
      { Type: 'Page Break' },
      { Type: 'Question', QuestionID: 'QID2' },
    ],
  });
  const v1 = publishFirst ? await publish(id, 'v1') : null;
  await call('PUT', `/API/v3/surveys/${id}`, { isActive: true });
  return { id, v1 };
}

/** Version 2: choice 2 of QID1 reads "Hound", QID2 is reworded with reworded choices; published. */
async function publishV2(id: string): Promise<string> {
  await call('PUT', defs(id, '/questions/QID1'), mcQuestion('Cat or dog?', ['Cat', 'Hound']));
  await call('PUT', defs(id, '/questions/QID2'), mcQuestion('Kept indoors?', ['Always', 'Never']));
  return publish(id, 'v2: hound');
}

/** The response a browser session recorded (its session id is the page's hidden field). */
async function responseOfSession(sessionId: string): Promise<string> {
  const row = await t.database.db
    .selectFrom('responses')
    .select('id')
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Takes the survey in the browser to its end from the first page shown: QID1 choice 2, QID2 choice 1. */
async function finishInBrowser(client: FormClient, id: string, first: string): Promise<string> {
  const sessionId = hiddenValue(first, '_fw_session');
  const second = await client.post(form(id), first, { QID1: '2' });
  expect(second.status).toBe(200);
  const end = await client.post(form(id), second.body, { QID2: '1' });
  expect(end.body).toContain('Your response has been recorded');
  return responseOfSession(sessionId);
}

describe('a response names the version it was taken on', () => {
  it('in the browser: a session started on v1 and finished after v2 is published has v1 and its labels', async () => {
    const { id, v1 } = await petsSurvey();
    const before = new FormClient(t);
    const started = await before.get(form(id));
    expect(started.body).toContain('Cat or dog?');

    const v2 = await publishV2(id);
    expect(v2).not.toBe(v1);
    const old = await responseOf(id, await finishInBrowser(before, id, started.body));
    expect(old.surveyVersionId).toBe(v1);
    expect(old.values).toMatchObject({ QID1: 2, QID2: 1 });
    expect(old.labels).toMatchObject({ QID1: 'Dog', QID2: 'Yes' });
    // A field of its own: not a value (exports keep the real platform's columns).
    expect(old.values.surveyVersionId).toBeUndefined();

    const after = new FormClient(t);
    const fresh = await after.get(form(id));
    const recent = await responseOf(id, await finishInBrowser(after, id, fresh.body));
    expect(recent.surveyVersionId).toBe(v2);
    expect(recent.labels).toMatchObject({ QID1: 'Hound', QID2: 'Always' });

    // Changing the older response later keeps its version's labels.
    await call('PUT', `/API/v3/responses/${old.responseId}`, { embeddedData: { note: 'seen' } });
    const changed = await responseOf(id, old.responseId);
    expect(changed.values.note).toBe('seen');
    expect(changed.labels).toMatchObject({ QID1: 'Dog', QID2: 'Yes' });
    expect(changed.surveyVersionId).toBe(v1);
  });

  it('through the sessions API: the session keeps v1 to its close; a new session records v2', async () => {
    const { id, v1 } = await petsSurvey();
    const old = await startSession(id);
    const v2 = await publishV2(id);
    const fresh = await startSession(id);

    const answer = async (sessionId: string) => {
      const body = { advance: true, responses: { QID1: { 2: { selected: true } } } };
      const next = (await call('POST', `${sessions(id)}/${sessionId}`, body)).result;
      const closed = await call('POST', `${sessions(id)}/${sessionId}`, {
        close: true,
        responses: { QID2: { 1: { selected: true } } },
      });
      return { next, response: await responseOf(id, closed.result.responseId) };
    };
    const first = await answer(old.sessionId);
    expect(first.next.questions[0].questionText).toBe('Indoors?');
    expect(first.response.surveyVersionId).toBe(v1);
    expect(first.response.labels).toMatchObject({ QID1: 'Dog', QID2: 'Yes' });

    const second = await answer(fresh.sessionId);
    expect(second.next.questions[0].questionText).toBe('Kept indoors?');
    expect(second.response.surveyVersionId).toBe(v2);
    expect(second.response.labels).toMatchObject({ QID1: 'Hound', QID2: 'Always' });
  });

  it('through the responses API and imports: the version live when recorded; null before the first', async () => {
    const { id } = await petsSurvey(false);
    const post = async (values: Record<string, unknown> = { QID1: 2 }) =>
      (await call('POST', `/API/v3/surveys/${id}/responses`, { values })).result.responseId;
    // Before the first version the live survey is the empty one the definitions call created.
    const unpublished = await responseOf(id, await post({ panel: 'early' }));
    expect(unpublished.surveyVersionId).toBeNull();

    const v1 = await publish(id, 'v1');
    const onV1 = await post();
    const v2 = await publishV2(id);
    const onV2 = await responseOf(id, await post());
    expect(await responseOf(id, onV1)).toMatchObject({ surveyVersionId: v1, labels: { QID1: 'Dog' } });
    expect(onV2.surveyVersionId).toBe(v2);
    expect(onV2.labels.QID1).toBe('Hound');

    // A row imported under the survey's export header records the live version, v2, and its labels.
    const file = await exportText(t, org.apiToken, id, { format: 'csv' });
    const names = (parse(file, { to: 1, bom: true }) as string[][])[0] as string[];
    expect(names.filter((name) => /version/i.test(name))).toEqual([]);
    const row = names.map((name) => ({ StartDate: '2026-01-01 10:00:00', Q1: '2' })[name] ?? '');
    const { result } = await importFile(
      t,
      org.apiToken,
      id,
      `${csvHeaders(file).join('\r\n')}\r\n${row.join(',')}\r\n`,
    );
    expect(result.result, JSON.stringify(result)).toMatchObject({ added: 1, failed: 0 });
    const imported = await t.database.db
      .selectFrom('responses')
      .select('id')
      .where('survey_id', '=', id)
      .where('status', '=', 4)
      .executeTakeFirstOrThrow();
    const read = await responseOf(id, imported.id);
    expect(read.surveyVersionId).toBe(v2);
    expect(read.labels.QID1).toBe('Hound');
  });

  it('is null for a response recorded before responses kept it', async () => {
    const { id, v1 } = await petsSurvey();
    const { responseId } = (await call('POST', `/API/v3/surveys/${id}/responses`, { values: { QID1: 1 } }))
      .result;
    expect((await responseOf(id, responseId)).surveyVersionId).toBe(v1);
    await t.database.db
      .updateTable('responses')
      .set({ survey_version: null })
      .where('id', '=', responseId)
      .execute();
    const old = await responseOf(id, responseId);
    expect(old.surveyVersionId).toBeNull();
    expect(old.labels.QID1).toBe('Cat');
  });
});
