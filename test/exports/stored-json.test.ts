/**
 * Issue 20, decision 0022: a response keeps its json export members as it was recorded, and a json or
 * ndjson export on the same layout, with no option that changes the values, copies them. The file is the
 * same as one written from the values; anything else (another layout, such an option, a response changed
 * since) is written from the values.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { updateEmbeddedData } from '../../src/modules/responses/responses.store.js';
import { engineFixture, importSurvey, PETS_PAGES } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  exportText as bareExport,
  exportImportExport,
  smallSurveyWithResponses,
} from '../responseimports/imports-helpers.js';
import { exportedFile, recordResponses, startExportWorker } from './exports-helpers.js';

const QSF = readFileSync(new URL('../fixtures/surveys/every-type.qsf', import.meta.url), 'utf8');
const TEXT = 'Zoë – naïve ✓, "quoted"\nsecond line';
const ANSWERS: Record<string, string | number>[] = [
  { QID1: 30, QID1_3_TEXT: TEXT, QID2_1: 1, QID2_3: 1, QID3: 2, QID4: 9, QID5_TEXT: TEXT, QID8_1: 5 },
  { QID1: 10, QID2_2: 1, QID4: 3, QID7_1: 'Oslo', QID9_1_2: 1, QID10_1: 42.5, 'QID12#1_1': 2, panel: 'x' },
  { QID5_TEXT: 'Only a name' },
];
// What a stored response's members are replaced with, to see whether an export copied them.
const MARKER = '"values":{"marker":"stored"},"labels":{}';

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
let responseIds: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, QSF, { active: false });
  responseIds = await recordResponses(t, org.apiToken, surveyId, ANSWERS);
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const stored = () =>
  t.database.db
    .selectFrom('responses')
    .select(['id', 'export_json', 'export_json_layout'])
    .where('survey_id', '=', surveyId)
    .orderBy('seq')
    .execute();

const setStored = (id: string, text: string | null) =>
  t.database.db
    .updateTable('responses')
    .set({ export_json: text })
    .where('survey_id', '=', surveyId)
    .where('id', '=', id)
    .execute();

const exportText = async (body: Record<string, unknown>) =>
  (await exportedFile(t, org.apiToken, surveyId, { compress: true, ...body })).bytes.toString('utf8');

describe('stored json export members', () => {
  it('are recorded with each response, and an export that copies them writes what it writes from the values', async () => {
    const rows = await stored();
    expect(rows.map((row) => row.id)).toEqual(responseIds);
    for (const row of rows) {
      expect(row.export_json).toMatch(/^"values":\{.*\},"labels":\{.*\}$/s);
      expect(row.export_json_layout).toBe(rows[0]?.export_json_layout);
    }
    const copied = {
      json: await exportText({ format: 'json' }),
      ndjson: await exportText({ format: 'ndjson' }),
    };
    const parsed = JSON.parse(copied.json).responses;
    expect(parsed.map((r: { responseId: string }) => r.responseId)).toEqual(responseIds);
    expect(parsed[0].values).toMatchObject({ QID1: 30, QID1_3_TEXT: TEXT, QID4: 9, QID4_NPS_GROUP: 3 });
    expect(parsed[0].labels).toMatchObject({ finished: 'True' });

    // Without their stored members: written from their values, to the same bytes.
    for (const id of responseIds) await setStored(id, null);
    expect(await exportText({ format: 'json' })).toBe(copied.json);
    expect(await exportText({ format: 'ndjson' })).toBe(copied.ndjson);
    for (const row of rows) await setStored(row.id, row.export_json);
  });

  it('are copied by a json and an ndjson export with no option that changes the values', async () => {
    const [first] = await stored();
    await setStored(first?.id as string, MARKER);
    try {
      for (const format of ['json', 'ndjson']) {
        expect(await exportText({ format })).toContain('"values":{"marker":"stored"}');
        expect(await exportText({ format, timeZone: 'UTC' })).toContain('"marker"');
      }
      // Options that change what is written, or the layout it is written on: written from the values.
      const others: Record<string, unknown>[] = [
        { timeZone: 'America/Denver' },
        { useLabels: true },
        { seenUnansweredRecode: -99 },
        { newlineReplacement: ' ' },
        { breakoutSets: false },
        { questionIds: ['QID1'] },
      ];
      for (const options of others) {
        const text = await exportText({ format: 'json', ...options });
        expect(text, JSON.stringify(options)).not.toContain('"marker"');
        expect(JSON.parse(text).responses[0].responseId).toBe(first?.id);
      }
      expect(await exportText({ format: 'json', timeZone: 'America/Denver' })).toMatch(/-0[67]:00"/);
    } finally {
      await setStored(first?.id as string, first?.export_json ?? null);
    }
  });

  it('go when a response is changed, and the export writes its new values', async () => {
    const [, second, third] = responseIds as [string, string, string];
    const updated = await t.call(org.apiToken, 'PUT', `/API/v3/responses/${second}`, {
      surveyId,
      values: { QID1: 30 },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await updateEmbeddedData(
      t.database.db,
      { organizationId: org.brandId },
      [
        {
          id: third,
          values: JSON.stringify({ QID5_TEXT: 'Only a name', panel: 'late' }),
          embedded_data: '{"panel":"late"}',
        },
      ],
      '2026-03-02T00:00:00Z',
    );
    const rows = await stored();
    expect(rows.map((row) => row.export_json === null)).toEqual([false, true, true]);
    expect(rows.map((row) => row.export_json_layout === null)).toEqual([false, true, true]);
    const responses = JSON.parse(await exportText({ format: 'json' })).responses;
    expect(responses[1].values.QID1).toBe(30);
    expect(responses[2].values.panel).toBe('late');
  });
});

describe('imported responses', () => {
  it('are recorded without stored members, and a json export writes them from their values', async () => {
    const answers = [
      { QID1: 10, QID3_TEXT: 'Lovely', panel: 'a' },
      { QID1: 20, QID3_TEXT: 'Meh' },
    ];
    const small = await smallSurveyWithResponses(answers);
    try {
      const { t: app, org: owner, sourceId } = small;
      const { copyId } = await exportImportExport(app, owner.apiToken, sourceId, 2, { format: 'csv' });
      const membersOf = async (id: string) =>
        (
          await app.database.db
            .selectFrom('responses')
            .select('export_json')
            .where('survey_id', '=', id)
            .orderBy('seq')
            .execute()
        ).map((row) => row.export_json !== null);
      expect(await membersOf(sourceId)).toEqual([true, true]);
      expect(await membersOf(copyId)).toEqual([false, false]);
      const strip = (text: string) =>
        JSON.parse(text).responses.map((r: { values: Record<string, unknown> }) => [
          r.values.QID1,
          r.values.QID3_TEXT,
        ]);
      const json = { format: 'json' };
      expect(strip(await bareExport(app, owner.apiToken, copyId, json))).toEqual([
        [10, 'Lovely'],
        [20, 'Meh'],
      ]);
      expect(strip(await bareExport(app, owner.apiToken, sourceId, json))).toEqual(
        strip(await bareExport(app, owner.apiToken, copyId, json)),
      );
    } finally {
      await small.close();
    }
  });
});

describe('a response taken through the survey pages', () => {
  it('is recorded with its members, which the json export copies', async () => {
    const pets = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const url = `/jfe/form/${pets}`;
    const page = await new FormClient(t).answerPages(url, PETS_PAGES);
    expect(page.status).toBe(200);
    const [row] = await t.database.db
      .selectFrom('responses')
      .select(['export_json', 'export_json_layout'])
      .where('survey_id', '=', pets)
      .execute();
    expect(row?.export_json).toContain('"QID1":2');
    expect(row?.export_json_layout).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const copied = await exportedFile(t, org.apiToken, pets, { format: 'json' });
    await t.database.db
      .updateTable('responses')
      .set({ export_json: null })
      .where('survey_id', '=', pets)
      .execute();
    const written = await exportedFile(t, org.apiToken, pets, { format: 'json' });
    expect(copied.bytes.toString('utf8')).toBe(written.bytes.toString('utf8'));
  });
});
