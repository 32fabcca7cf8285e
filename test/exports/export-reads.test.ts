/**
 * The export job reads and parses only the JSON columns a format needs (response-export.job.ts
 * `rowParts`): these check that each format still gets what it writes — json the displayed fields and
 * values, csv and spss the displayed fields when `seenUnansweredRecode` asks for them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { insertResponses } from '../../src/modules/responses/responses.store.js';
import { responseRow } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { runLegacyExport, startExportWorker } from './exports-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
const DISPLAYED_VALUES = { QID1: [10, 20, 30] };

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  // Shown the fruit question and the comment box, answered only the first.
  await insertResponses(t.database.db, [
    responseRow(
      {
        id: 'R_readsSeenEmpty1',
        organizationId: org.brandId,
        surveyId,
        seq: 1,
        at: '2026-03-01T12:00:05Z',
      },
      { _recordId: 'R_readsSeenEmpty1', QID1: 10, finished: 1 },
      {
        duration: 5,
        start_date: '2026-03-01T12:00:00Z',
        labels: JSON.stringify({ QID1: 'Apple', finished: 'True' }),
        displayed_fields: JSON.stringify(['QID1', 'QID3_TEXT']),
        displayed_values: JSON.stringify(DISPLAYED_VALUES),
      },
    ),
  ]);
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

async function exported(body: Record<string, unknown>): Promise<string> {
  const { content } = await runLegacyExport(t, org.apiToken, { surveyId, ...body });
  return content.toString('utf8');
}

describe('what the export job reads for each format', () => {
  it('json carries the stored labels, displayed fields and displayed values', async () => {
    const [response] = JSON.parse(await exported({ format: 'json' })).responses;
    expect(response.labels.QID1).toBe('Apple');
    expect(response.displayedFields).toEqual(['QID1', 'QID3_TEXT']);
    expect(response.displayedValues).toEqual(DISPLAYED_VALUES);
  });

  it('csv without options leaves a shown, unanswered field empty; seenUnansweredRecode fills it', async () => {
    const lastLine = (text: string) => text.trimEnd().split('\r\n').at(-1) as string;
    const plain = lastLine(await exported({ format: 'csv' }));
    expect(plain).toMatch(/,10,,/);
    expect(plain).not.toContain('-99');
    expect(lastLine(await exported({ format: 'csv', seenUnansweredRecode: -99 }))).toMatch(/,10,,.*,-99,/);
  });
});
