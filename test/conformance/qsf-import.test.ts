import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { valueKeysOfSurvey } from '../../src/modules/surveys/definition/value-keys.js';
import { importQsf } from '../../src/modules/surveys/qsf-import.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { requireShared, SHARED } from './shared.js';

/** Every real QSF file of ../shared: imported, read back, and round-tripped through the JSON body. */
function realSurveyFiles(): string[] {
  requireShared();
  const qsfDir = join(SHARED, 'fixtures/qsf');
  const exportsDir = join(SHARED, 'fixtures/exports');
  return [
    ...readdirSync(qsfDir)
      .filter((f) => f.endsWith('.qsf'))
      .map((f) => join(qsfDir, f)),
    ...readdirSync(exportsDir)
      .filter((f) => f.endsWith('.qsf') || f.endsWith('-qsf.json'))
      .map((f) => join(exportsDir, f)),
  ];
}

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(() => t.close());

/** The parts of a survey record that describe the survey itself (not its id, dates or counts). */
const structure = (record: Record<string, unknown>) => {
  const { id, creationDate, lastModified, lastModifiedDate, ...rest } = record;
  return rest;
};

it('finds the shared survey files', () => {
  expect(realSurveyFiles().length).toBeGreaterThanOrEqual(4);
});

describe.each(realSurveyFiles().map((file) => [file.split('/').at(-1), file]))('%s', (_, file) => {
  it('imports, is served in full, and round-trips through a JSON body', async () => {
    const text = readFileSync(file as string, 'utf8');
    const source = JSON.parse(text);
    const root = source.result ?? source;
    const imported = await uploadQsf(t, org.apiToken, text);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const id = imported.body.result.id;
    const got = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${id}`);
    expect(got.status).toBe(200);
    const survey = got.body.result;

    // Every question of the file is served under its QID, unsupported ones listed in the notice.
    const questions = root.SurveyElements.filter((e: { Element: string }) => e.Element === 'SQ');
    expect(Object.keys(survey.questions).sort()).toEqual(
      questions.map((q: { Payload: { QuestionID: string } }) => q.Payload.QuestionID).sort(),
    );
    for (const [qid, question] of Object.entries<{ supported: boolean }>(survey.questions)) {
      if (!question.supported) expect(imported.body.meta.notice, qid).toContain(qid);
    }
    expect(survey.name).toBe(root.SurveyEntry.SurveyName);
    expect(Object.keys(survey.blocks).length).toBeGreaterThan(0);
    expect(survey.flow.length).toBeGreaterThan(0);

    // The record posted back as a JSON body makes a survey that reads back the same.
    const again = await t.call(org.apiToken, 'POST', '/API/v3/surveys', survey);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const copy = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${again.body.result.id}`)).body.result;
    expect(structure(copy)).toEqual(structure(survey));
  });
});

it('names value keys as the real export of the same survey does (qualtRics API test project)', () => {
  const qsf = JSON.parse(
    readFileSync(join(SHARED, 'fixtures/exports/qualtRics-apitestproject-qsf.json'), 'utf8'),
  );
  const keys = new Set(valueKeysOfSurvey(importQsf(qsf, 'SV_aaaaaaaaaaaaaaa').document).map((k) => k.key));
  const csv = readFileSync(join(SHARED, 'fixtures/exports/qualtRics-apitestproject-csv.csv'), 'utf8');
  const importIdRow = csv.split(/\r?\n/)[2] ?? '';
  const importIds = [
    ...importIdRow.matchAll(/""ImportId"":""(QID[^"]+)""(?:,""choiceId"":""([^"]+)"")?/g),
  ].map(([, id, choice]) => (choice ? `${id}_${choice}` : (id as string)));
  // Display-order columns and the questions the QSF changed after the export (README) are not answers.
  const answers = importIds.filter((id) => !/_DO|_ADO|QID1[67]\b/.test(id));
  expect(answers.length).toBeGreaterThan(10);
  expect(answers.filter((id) => !keys.has(id))).toEqual([]);
});
