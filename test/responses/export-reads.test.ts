/**
 * The responses an export reads (export-reads.service.ts), on both engines: every response once, in
 * recorded order, a batch at a time, the next batch read only once this one is handed on: reading one
 * ahead raised a SQLite json export's peak memory from 247 to 365–376 MB (200k rows) for no gain there.
 */
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { streamResponsesForExport } from '../../src/modules/responses/export-reads.service.js';
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

/** The database, with a count of the statements that read the responses table. */
function countingReads() {
  const counter = { reads: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node.from).includes('"responses"'))
        counter.reads++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: t.database.db.withPlugin(plugin), counter };
}

describe('streamResponsesForExport', () => {
  it('hands on every response once, in recorded order, reading the next batch only after this one', async () => {
    const { db, counter } = countingReads();
    const seen: { id: string; readsBefore: number }[] = [];
    for await (const row of streamResponsesForExport(db, { organizationId: org.brandId }, { surveyId }, 2))
      seen.push({ id: row.id, readsBefore: counter.reads });
    expect(seen.map((row) => row.id)).toEqual(ids);
    // The highest settled seq, then a read per batch, each once the batch before it is handed on.
    expect(seen.map((row) => row.readsBefore)).toEqual([2, 2, 3, 3, 4]);
    expect(counter.reads).toBe(4);
  });
});
