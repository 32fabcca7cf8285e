import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunnableSurvey } from '../../src/modules/engine/engine-survey.js';
import { walk } from '../../src/modules/engine/flow.js';
import { pageView } from '../../src/modules/engine/page-view.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { requireShared, SHARED } from '../conformance/shared.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { call200, csvHeaders, defs, exportFile } from './definitions-helpers.js';

/**
 * Issue 15: every real QSF file of ../shared (fixtures/qsf, and the QSF files beside the real exports):
 * import → `GET /v3/survey-definitions/{id}?format=qsf` → import gives a survey whose definition, engine
 * pages and export columns equal the first's.
 */
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
afterAll(() => t?.close());

/** The text with the second survey's id written as the first's. */
const asFirst = (text: string, first: string, second: string) => text.replaceAll(second, first);

/**
 * Every page a respondent who answers nothing is shown, as the engine draws it (questions, texts,
 * choices in the order shown), seeded alike so that randomisers agree.
 */
async function pagesOf(surveyId: string) {
  const run = await loadRunnableSurvey(t.database.db, surveyId, new Date());
  if (!run) throw new Error(`no survey ${surveyId}`);
  const state = { seed: 12345, given: {}, answers: {}, position: 0, shownKey: '', shownAt: '' };
  const walked = walk(run.engine, state);
  const meta = { title: run.taking.name, language: 'EN', sessionId: 'FS_session' };
  return walked.pages.map((_, position) => pageView(run.engine, meta, { ...state, position }, walked));
}

/** What a browser's first page shows, whatever order a randomiser drew: question texts and form fields. */
const firstPage = async (surveyId: string) => {
  const body = (await new FormClient(t).get(`/jfe/form/${surveyId}`)).body;
  const all = (pattern: RegExp) => [...body.matchAll(pattern)].map((m) => m[1]).sort();
  return { texts: all(/<legend[^>]*>([^<]*)</g), fields: all(/ name="([^"]+)"/g) };
};

it('finds the shared survey files', () => {
  expect(realSurveyFiles().length).toBeGreaterThanOrEqual(4);
});

describe.each(realSurveyFiles().map((file) => [file.split('/').at(-1), file]))('%s', (_, file) => {
  it('imports, is read back as QSF, and imports again as the same survey', async () => {
    const first = await importSurvey(t, org.apiToken, readFileSync(file as string, 'utf8'));
    const qsf = (await call200(t, org.apiToken, 'GET', defs(first, '?format=qsf'))).result;
    expect(qsf.SurveyEntry.SurveyID).toBe(first);
    const second = await importSurvey(t, org.apiToken, JSON.stringify(qsf));
    const same = (value: unknown) => JSON.parse(asFirst(JSON.stringify(value), first, second));

    // The definition: the QSF file and the JSON record read back alike (ids aside).
    const again = (await call200(t, org.apiToken, 'GET', defs(second, '?format=qsf'))).result;
    expect(same(again)).toEqual(qsf);
    const { LastModified: _a, ...json } = (await call200(t, org.apiToken, 'GET', defs(first))).result;
    const { LastModified: _b, ...json2 } = (await call200(t, org.apiToken, 'GET', defs(second))).result;
    expect(same(json2)).toEqual(json);
    const record = (id: string) =>
      call200(t, org.apiToken, 'GET', `/API/v3/surveys/${id}`).then(({ result }) => {
        const { id: _id, creationDate, lastModified, lastModifiedDate, ...rest } = result;
        return rest;
      });
    expect(same(await record(second))).toEqual(await record(first));

    // The engine pages: the path a respondent walks, and the first page in the browser.
    expect(same(await pagesOf(second))).toEqual(await pagesOf(first));
    const shown = await firstPage(first);
    expect(shown.fields.length).toBeGreaterThan(2);
    expect(same(await firstPage(second))).toEqual(shown);

    // The export columns: the three header rows of the csv export.
    const headers = csvHeaders(await exportFile(t, org.apiToken, first, 'csv'));
    expect(headers[0]?.split(',').length).toBeGreaterThan(10);
    expect(csvHeaders(await exportFile(t, org.apiToken, second, 'csv'))).toEqual(headers);
  });
});
