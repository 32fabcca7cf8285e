import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { FormClient } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { call200, defs, exportFile, mcQuestion, whenSelected } from './definitions-helpers.js';

/**
 * Issue 15: a change reaches respondents only when published, and a session runs the version it started
 * on to its end; versions are listed and read back.
 */

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);
const form = (surveyId: string) => `/jfe/form/${surveyId}`;

/** Pets: QID1 (cat or dog), a page break, QID2 (its name) and QID3 (indoors?); published and active. */
async function publishedSurvey(): Promise<{ id: string; block: string; v1: string }> {
  const created = await call('POST', '/API/v3/survey-definitions', { SurveyName: 'Pets over time' });
  const { SurveyID: id, DefaultBlockID: block } = created.result;
  await call('POST', defs(id, '/questions'), mcQuestion('Cat or dog?', ['Cat', 'Dog']));
  await call('POST', defs(id, '/questions'), {
    QuestionText: 'Its name?',
    QuestionType: 'TE',
    Selector: 'SL',
  });
  await call('POST', defs(id, '/questions'), mcQuestion('Indoors?', ['Yes', 'No']));
  await call('PUT', defs(id, `/blocks/${block}`), {
    BlockElements: [
      { Type: 'Question', QuestionID: 'QID1' },
      { Type: 'Page Break' },
      { Type: 'Question', QuestionID: 'QID2' },
      { Type: 'Question', QuestionID: 'QID3' },
    ],
  });
  const v1 = (await call('POST', defs(id, '/versions'), { Description: 'v1' })).result.metadata.versionID;
  await call('PUT', `/API/v3/surveys/${id}`, { isActive: true });
  return { id, block, v1 };
}

describe('changing a question after publishing', () => {
  it('reaches new sessions only once published; a session started before runs its version to the end', async () => {
    const { id, v1 } = await publishedSurvey();
    const before = new FormClient(t);
    let old = await before.get(form(id));
    expect(old.body).toContain('Cat or dog?');

    // Changed through the definitions calls: a new choice, a reworded question, a question gone.
    await call('PUT', defs(id, '/questions/QID1'), mcQuestion('Cat, dog or fish?', ['Cat', 'Dog', 'Fish']));
    await call('PUT', defs(id, '/questions/QID2'), {
      QuestionText: 'Name your pet',
      QuestionType: 'TE',
      Selector: 'SL',
    });
    await call('DELETE', defs(id, '/questions/QID3'));
    expect((await call('GET', defs(id, '/questions/QID1'))).result.QuestionText).toBe('Cat, dog or fish?');

    // Not published yet: a new respondent and the live survey see version 1.
    const unpublished = await new FormClient(t).get(form(id));
    expect(unpublished.body).toContain('Cat or dog?');
    expect(unpublished.body).not.toContain('Fish');
    const live = (await call('GET', `/API/v3/surveys/${id}`)).result;
    expect(live.questions.QID1.questionText).toBe('Cat or dog?');

    const v2 = (await call('POST', defs(id, '/versions'), { Description: 'v2: fish' })).result.metadata;
    expect(v2).toMatchObject({ versionNumber: 2, published: true });

    // A new session takes version 2.
    const after = new FormClient(t);
    let fresh = await after.get(form(id));
    expect(fresh.body).toContain('Cat, dog or fish?');
    fresh = await after.post(form(id), fresh.body, { QID1: '3' });
    expect(fresh.body).toContain('Name your pet');
    expect(fresh.body).not.toContain('Indoors?');
    fresh = await after.post(form(id), fresh.body, { QID2_TEXT: 'Nemo' });
    expect(fresh.body).toContain('Your response has been recorded');

    // The session started before carries on with version 1: its wording, its third question.
    old = await before.post(form(id), old.body, { QID1: '2' });
    expect(old.status).toBe(200);
    expect(old.body).toContain('Its name?');
    expect(old.body).toContain('Indoors?');
    expect(old.body).not.toContain('Name your pet');
    old = await before.post(form(id), old.body, { QID2_TEXT: 'Rex', QID3: '1' });
    expect(old.body).toContain('Your response has been recorded');

    const responses = JSON.parse(await exportFile(t, org.apiToken, id, 'json')).responses;
    const rex = responses.find((r: { values: Record<string, unknown> }) => r.values.QID2_TEXT === 'Rex');
    const nemo = responses.find((r: { values: Record<string, unknown> }) => r.values.QID2_TEXT === 'Nemo');
    expect(rex.values).toMatchObject({ QID1: 2, QID2_TEXT: 'Rex' });
    expect(nemo.values).toMatchObject({ QID1: 3 });
    // Exports have the live version's columns (QID3 is gone from it); the response keeps what was answered.
    expect(rex.values.QID3).toBeUndefined();
    const stored = (await call('GET', `/API/v3/surveys/${id}/responses/${rex.responseId}`)).result;
    expect(stored.values).toMatchObject({ QID1: 2, QID2_TEXT: 'Rex', QID3: 1 });
    const storedNemo = (await call('GET', `/API/v3/surveys/${id}/responses/${nemo.responseId}`)).result;
    expect(storedNemo.values.QID3).toBeUndefined();
    // Each names the published version it was taken on (docs/survey-definitions.md).
    expect(stored.surveyVersionId).toBe(v1);
    expect(storedNemo.surveyVersionId).toBe(v2.versionID);
  });

  it('a block, a flow change and a quota reach the engine together, at publishing', async () => {
    const { id } = await publishedSurvey();
    const extra = (await call('POST', defs(id, '/blocks'), { Description: 'Extra' })).result;
    await call('POST', defs(id, `/questions?blockId=${extra.BlockID}`), {
      QuestionText: 'Anything else?',
      QuestionType: 'TE',
      Selector: 'ML',
    });
    const quota = await call('POST', defs(id, '/quotas'), {
      Name: 'Cat people',
      Occurrences: 5,
      Logic: whenSelected('QID1', '1'),
    });
    expect(quota.result.QuotaID).toMatch(/^QO_/);
    expect((await call('GET', defs(id, '/quotas'))).result.elements).toHaveLength(1);
    expect((await call('GET', `/API/v3/surveys/${id}/quotas`)).result.elements).toEqual([]);

    await call('POST', defs(id, '/versions'), { Description: 'with extra block and quota' });
    const quotas = (await call('GET', `/API/v3/surveys/${id}/quotas`)).result.elements;
    expect(quotas).toMatchObject([{ id: quota.result.QuotaID, name: 'Cat people', limit: 5, count: 0 }]);
    const client = new FormClient(t);
    let page = await client.get(form(id));
    page = await client.post(form(id), page.body, { QID1: '1' });
    page = await client.post(form(id), page.body, { QID2_TEXT: 'Tom' });
    expect(page.body).toContain('Anything else?');
  });
});

describe('versions', () => {
  it('are listed, read back as JSON and QSF, and a snapshot (Published: false) leaves the live survey', async () => {
    const { id, v1 } = await publishedSurvey();
    await call('PUT', defs(id, '/questions/QID2'), {
      QuestionText: 'Called?',
      QuestionType: 'TE',
      Selector: 'SL',
    });
    const snapshot = (await call('POST', defs(id, '/versions'), { Description: 'draft', Published: false }))
      .result.metadata;
    expect(snapshot).toMatchObject({ versionNumber: 2, published: false, wasPublished: false });
    expect((await call('GET', `/API/v3/surveys/${id}`)).result.questions.QID2.questionText).toBe('Its name?');

    const list = (await call('GET', defs(id, '/versions'))).result;
    expect(list.nextPage).toBeNull();
    expect(list.elements.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([1, 2]);
    expect(list.elements[0]).toMatchObject({
      versionID: v1,
      description: 'v1',
      published: true,
      userID: org.userId,
    });
    expect(list.elements[0].versionID).toMatch(/^\d+$/);

    const first = (await call('GET', defs(id, `/versions/${v1}`))).result;
    expect(first.Questions.QID2.QuestionText).toBe('Its name?');
    expect(first.metadata.versionNumber).toBe(1);
    const draft = (await call('GET', defs(id, `/versions/${snapshot.versionID}?format=qsf`))).result;
    const texts = draft.SurveyElements.filter((e: { Element: string }) => e.Element === 'SQ').map(
      (e: { Payload: { QuestionText: string } }) => e.Payload.QuestionText,
    );
    expect(texts).toContain('Called?');

    const missing = await t.call(org.apiToken, 'GET', defs(id, '/versions/12345'));
    expect(missing.status).toBe(404);
    expect(missing.body.meta.error.errorCode).toBe('FW_DEF_4');

    // Deleting the survey takes its versions and its draft with it.
    await call('PUT', defs(id, '/questions/QID1'), mcQuestion('Changed again', ['A']));
    await call('DELETE', `/API/v3/surveys/${id}`);
    expect((await t.call(org.apiToken, 'GET', defs(id, '/versions'))).status).toBe(404);
    for (const table of ['survey_versions', 'survey_drafts'] as const) {
      const left = await t.database.db
        .selectFrom(table)
        .select('survey_id')
        .where('survey_id', '=', id)
        .execute();
      expect(left, table).toEqual([]);
    }
  });
});
