/**
 * The responses an export reads (export-reads.service.ts), on both engines: every response once, in
 * recorded order, a batch at a time, the next batch read only once this one is handed on: reading one
 * ahead raised a SQLite json export's peak memory from 247 to 365–376 MB (200k rows) for no gain there.
 * A batch lets go of each row as it hands it on: held to the end of the batch, the rows went to the old
 * generation (PostgreSQL json export of 200k rows: peak 370–397 MB, 238 MB let go).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { streamResponsesForExport } from '../../src/modules/responses/export-reads.service.js';
import { notingReads, readsOf } from '../helpers/table-reads.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { insertResponses } from './responses-fixture.js';

let t: TestApp;
let org: BootstrapResult;
let surveyId: string;
let ids: string[];

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  ids = await insertResponses(t.database.db, { organizationId: org.brandId, surveyId }, 5, 'reads');
});
afterAll(() => t.close());

describe('streamResponsesForExport', () => {
  it('hands on every response once, in recorded order, reading the next batch only after this one', async () => {
    const { database, reads } = notingReads(t.database);
    const responseReads = () => readsOf(reads, 'responses');
    const seen: { id: string; readsBefore: number }[] = [];
    const scope = { organizationId: org.brandId };
    for await (const row of streamResponsesForExport(database.db, scope, { surveyId }, 2))
      seen.push({ id: row.id, readsBefore: responseReads() });
    expect(seen.map((row) => row.id)).toEqual(ids);
    // The highest settled seq, then a read per batch, each once the batch before it is handed on.
    expect(seen.map((row) => row.readsBefore)).toEqual([2, 2, 3, 3, 4]);
    expect(responseReads()).toBe(4);
  });

  it('lets go of each row as it hands it on: the batch read no longer holds the rows already handed on', async () => {
    const { database, reads } = notingReads(t.database);
    // The row arrays of the export's batches: every answer of the responses table but the first (the
    // highest settled seq).
    const batches = () =>
      reads
        .filter((read) => read.step === 'answer' && read.table === 'responses')
        .slice(1)
        .map((read) => read.rows);
    const scope = { organizationId: org.brandId };
    const seen: string[] = [];
    for await (const row of streamResponsesForExport(database.db, scope, { surveyId }, 2)) {
      seen.push(row.id);
      expect(batches().at(-1)).not.toContain(row);
    }
    expect(seen).toEqual(ids);
    expect(batches()).toHaveLength(3);
  });
});
