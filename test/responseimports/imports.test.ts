/**
 * Issue 6, response imports: what a file's cells become, rows that fail alone with their reasons, files
 * refused before anything is written, the survey-path spelling, and the cross-organisation rules.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { Queryable } from '../../src/deps.js';
import { jobBlobKey } from '../../src/jobs/job-files.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { responseImportJob } from '../../src/modules/responseimports/response-import.job.js';
import {
  type ImportProgress,
  RESPONSE_IMPORT_JOB,
} from '../../src/modules/responseimports/response-imports.service.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { exportText, importFile, postImport, startWorker, waitForImport } from './imports-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let other: BootstrapResult;
let worker: JobWorker;
/** The three header rows of the small survey's csv export, as text, and its column names. */
let header: string;
let names: string[];

beforeAll(async () => {
  t = await buildTestApp({ clock: manualClock('2026-03-01T12:00:00Z') });
  org = await t.newOrganization();
  other = await t.newOrganization();
  worker = startWorker(t);
  header = await exportText(t, org.apiToken, await importSmallSurvey(t, org.apiToken), { format: 'csv' });
  names = (parse(header, { to: 1 }) as string[][])[0] as string[];
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** A data row of the csv layout from cells named by their row-1 column name. */
function line(cells: Record<string, string>): string {
  for (const name of Object.keys(cells)) expect(names, name).toContain(name);
  return `${names.map((name) => quote(cells[name] ?? '')).join(',')}\r\n`;
}

const GOOD = { StartDate: '2025-12-31 23:00:00', EndDate: '2025-12-31 23:10:00', fruit: '20' };

async function responseCounts(surveyId: string) {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
  return res.body.result.responseCounts;
}

describe('what an imported row becomes', () => {
  it('keeps a free ResponseId, metadata, recipient fields and decimal-comma locations', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const file =
      header +
      line({
        ...GOOD,
        ResponseId: 'R_importedKeep001',
        Status: 'Imported',
        'Duration (in seconds)': '600',
        Finished: 'True',
        RecipientEmail: 'ann@example.com',
        ExternalReference: 'ext-7',
        LocationLatitude: '47,5',
        LocationLongitude: '-97,69139862060546875',
        fruit: 'Banana',
        Q2_1: 'Red',
        Q4_1: 'Good',
        nps: '10',
        panel: 'spring',
      });
    const { result } = await importFile(t, org.apiToken, surveyId, file, { decimalSeparator: ',' });
    expect(result.result, JSON.stringify(result)).toMatchObject({ added: 1, failed: 0 });
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/R_importedKeep001`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.values).toMatchObject({
      startDate: '2025-12-31T23:00:00Z',
      endDate: '2025-12-31T23:10:00Z',
      status: 4,
      duration: 600,
      finished: 1,
      recipientEmail: 'ann@example.com',
      externalDataReference: 'ext-7',
      locationLatitude: 47.5,
      locationLongitude: Number('-97.69139862060546875'),
      QID1: 20,
      QID2_1: 1,
      QID4_1: 5,
      QID5: 10,
      QID5_NPS_GROUP: 3,
      panel: 'spring',
    });
    expect(await responseCounts(surveyId)).toMatchObject({ generated: 1, auditable: 0 });
  });
});

describe('rows that cannot be imported', () => {
  it('fail alone with their row number and reason; good rows land', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const file =
      header +
      line(GOOD) +
      line({ ...GOOD, fruit: 'Durian' }) +
      line({ ...GOOD, StartDate: 'yesterday' }) +
      line({ ...GOOD, Finished: 'maybe' }) +
      line({ ...GOOD, Q2_1: '7' }) +
      line({ ...GOOD, ResponseEventContext: 'x'.repeat(51) }) +
      line(GOOD).replace('\r\n', ',extra\r\n') +
      line(GOOD);
    const { result } = await importFile(t, org.apiToken, surveyId, file);
    expect(result.status).toBe('complete');
    expect(result.result.added).toBe(2);
    expect(result.result.failed).toBe(6);
    expect(result.result.errors.map((e: { row: number }) => e.row)).toEqual([2, 3, 4, 5, 6, 7]);
    const [choice, date, finished, selected, context, width] = result.result.errors.map(
      (e: { message: string }) => e.message,
    );
    expect(choice).toMatch(/column fruit must be the recode of one of the question’s choices/);
    expect(date).toMatch(/StartDate: "yesterday" is not a date/);
    expect(finished).toMatch(/Finished: "maybe"/);
    expect(selected).toMatch(/column Q2_1 must be 1 \(chosen\) or 0/);
    expect(context).toMatch(/ResponseEventContext is longer than 50/);
    expect(width).toBe(`The row has ${names.length + 1} fields; the header has ${names.length}.`);
    expect(await responseCounts(surveyId)).toMatchObject({ auditable: 0, generated: 2 });
  });

  it('a file that cannot be read fails the job with the reason and writes nothing', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const file = `${header}${line(GOOD).repeat(5)}${line(GOOD).replace('20', '"20')}`;
    const { result } = await importFile(t, org.apiToken, surveyId, file);
    expect(result.status).toBe('failed');
    expect(result.errorMessage).toMatch(/The file cannot be read/);
    expect(result.result.added).toBe(0);
    expect(await responseCounts(surveyId)).toMatchObject({ auditable: 0, generated: 0 });
  });
});

describe('requests refused before anything is queued', () => {
  let surveyId: string;
  beforeAll(async () => {
    surveyId = await importSmallSurvey(t, org.apiToken);
  });
  const refused = async (file: string, fields: Record<string, string>, code: string, pattern: RegExp) => {
    const res = await postImport(t, org.apiToken, file, { surveyId, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(code === 'FW_IMP_2' || code === 'FW_VAL_1' ? 400 : 404);
    expect(res.body.meta.error.errorCode).toBe(code);
    expect(res.body.meta.error.errorMessage).toMatch(pattern);
  };

  it('a header that is not the export layout of the survey: 400 FW_IMP_2 naming the problem', async () => {
    const [first, second] = header.split('\r\n');
    await refused(`${first}\r\n${second}\r\n`, {}, 'FW_IMP_2', /three header rows/);
    await refused(
      `${first}\r\n${second}\r\n${second}\r\n`,
      {},
      'FW_IMP_2',
      /Header row 3, column 1 \(StartDate\)/,
    );
    const foreign = 'a,b\r\nA,B\r\n"{""ImportId"":""QID90""}","{""ImportId"":""QID91""}"\r\n1,2\r\n';
    await refused(foreign, {}, 'FW_IMP_2', /belongs to survey/);
    await refused(header, { format: 'tsv' }, 'FW_IMP_2', /Header row 3/);
  });

  it('bad fields, a missing or empty file, and fileUrl: 400 naming the field', async () => {
    await refused('', {}, 'FW_VAL_1', /file is required/);
    await refused(header, { format: 'xml' }, 'FW_VAL_1', /format must be csv, tsv or csv2013/);
    await refused(header, { charset: 'ISO-8859-1' }, 'FW_VAL_1', /charset must be UTF-8/);
    await refused(header, { decimalSeparator: ';' }, 'FW_VAL_1', /decimalSeparator/);
    await refused(
      header,
      { fileUrl: 'http://127.0.0.1/x.csv' },
      'FW_VAL_1',
      /fileUrl is not supported: upload the file/,
    );
    const json = await t.call(org.apiToken, 'POST', '/API/v3/responseimports', {
      surveyId,
      fileUrl: 'http://127.0.0.1/x.csv',
    });
    expect(json.status).toBe(400);
    expect(json.body.meta.error.errorMessage).toMatch(/fileUrl/);
  });
});

describe('the survey-path spelling and progress', () => {
  it('POST /surveys/{id}/import-responses answers a progressId; its GET reports the counts', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const base = `/API/v3/surveys/${surveyId}/import-responses`;
    const started = await postImport(t, org.apiToken, header + line(GOOD).repeat(5), {}, base);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result).toMatchObject({ percentComplete: 0, status: 'inProgress' });
    const { result } = await waitForImport(t, org.apiToken, `${base}/${started.body.result.progressId}`);
    expect(result).toMatchObject({ status: 'complete', percentComplete: 100 });
    expect(result.result).toMatchObject({ added: 5, failed: 0, ignoredColumns: [] });
  });
});

describe('another organisation', () => {
  it('gets 404 for the survey and for the import, whichever spelling', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const { id } = await importFile(t, org.apiToken, surveyId, header + line(GOOD));
    const post = await postImport(t, other.apiToken, header + line(GOOD), { surveyId });
    expect(post.status).toBe(404);
    expect(post.body.meta.error.errorCode).toBe('GSI_2');
    const legacy = await t.call(other.apiToken, 'GET', `/API/v3/responseimports/${id}`);
    expect(legacy.status).toBe(404);
    expect(legacy.body.meta.error.errorCode).toBe('FW_IMP_1');
    const current = await t.call(other.apiToken, 'GET', `/API/v3/surveys/${surveyId}/import-responses/${id}`);
    expect(current.status).toBe(404);
    expect(current.body.meta.error.errorCode).toBe('GSI_2');
    const own = await t.call(org.apiToken, 'GET', `/API/v3/responseimports/${id}`);
    expect(own.status).toBe(200);
    expect(await responseCounts(surveyId)).toMatchObject({ generated: 1 });
  });
});

describe('progress (the job handler called directly)', () => {
  const start: ImportProgress = {
    rowsDone: 0,
    rowsTotal: 0,
    added: 0,
    failed: 0,
    errors: [],
    ignoredColumns: [],
  };

  /** What a test does at a batch's checkpoint (in its transaction), and hears when a batch is prepared. */
  interface Hooks {
    checkpoint?(db: Queryable, percent: number, surveyId: string): Promise<void>;
    prepared?(): void;
  }

  async function run(progress: ImportProgress, hooks: Hooks = {}) {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    // The job reads its upload from the BlobStore, as stored by the API (response-imports.service.ts).
    const deps = { db: t.database.db, clock: t.clock, config: testConfig(), blobs: t.app.blobs };
    const file = jobBlobKey(org.brandId, 'uploads', `${surveyId}.upload`);
    await t.app.blobs.save(file, [Buffer.from(header + line(GOOD).repeat(4))]);
    const seen: number[] = [];
    try {
      const result = await responseImportJob(deps, { batchRows: 1 }).run(
        {
          id: 'PGRS_progressTest001',
          organizationId: org.brandId,
          kind: RESPONSE_IMPORT_JOB,
          payload: { surveyId, file, format: 'csv', decimalSeparator: '.' },
          result: progress,
          attempts: 1,
        },
        {
          signal: new AbortController().signal,
          // The job takes a batch's time as it prepares the batch.
          now: () => {
            hooks.prepared?.();
            return t.clock.now();
          },
          checkpoint: async (db, percent) => {
            seen.push(percent);
            await hooks.checkpoint?.(db, percent, surveyId);
          },
        },
      );
      return { seen, result: result as ImportProgress, surveyId };
    } finally {
      await t.app.blobs.remove(file);
    }
  }

  /** The recorded labels of the survey's responses, in recorded order. */
  async function labelsInOrder(surveyId: string): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom('responses')
      .select('labels')
      .where('survey_id', '=', surveyId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => row.labels);
  }

  it('moves with every batch written, and stays below 100 until the job ends', async () => {
    const { seen, result } = await run(start);
    expect(seen).toEqual([0, 25, 50, 75, 99]);
    expect(result).toMatchObject({ rowsDone: 4, rowsTotal: 4, added: 4, failed: 0 });
  });

  it('a restarted job resumes after the rows its last checkpoint says are done', async () => {
    const { seen, result, surveyId } = await run({ ...start, rowsDone: 2, added: 2 });
    expect(seen).toEqual([75, 99]);
    expect(result).toMatchObject({ rowsDone: 4, added: 4 });
    expect(await responseCounts(surveyId)).toMatchObject({ generated: 2 });
  });

  it('prepares the next batch while this one is being written', async () => {
    // Batch 1 holds its transaction open at its checkpoint until batch 2 has been prepared: a job that
    // prepared a batch only after the one before it committed never gets there (bounded: 10 s).
    let prepared = 0;
    let second: () => void = () => undefined;
    const secondPrepared = new Promise<void>((resolve) => {
      second = resolve;
    });
    const { result } = await run(start, {
      prepared: () => {
        prepared++;
        if (prepared === 2) second();
      },
      checkpoint: async (_db, percent) => {
        if (percent !== 25) return;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<string>((resolve) => {
          timer = setTimeout(resolve, 10_000, 'timed out');
        });
        const first = await Promise.race([secondPrepared.then(() => 'prepared'), timeout]);
        clearTimeout(timer);
        expect(first).toBe('prepared');
      },
    });
    expect(result).toMatchObject({ rowsDone: 4, added: 4, failed: 0 });
  });

  it('lays a prepared batch out again when the survey changed before its transaction', async () => {
    // Batch 1's transaction renames the choice the rows answer (a new version of the survey), after
    // batch 2 was laid out on the old one: batch 2 and later carry the new label, batch 1 the old.
    const { surveyId } = await run(start, {
      checkpoint: async (db, percent, id) => {
        if (percent !== 25) return;
        const survey = await db
          .selectFrom('surveys')
          .select(['id', 'definition', 'version'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(survey.definition).toContain('"Banana"');
        await db
          .updateTable('surveys')
          .set({
            definition: survey.definition.replace('"Banana"', '"Plantain"'),
            version: survey.version + 1,
          })
          .where('id', '=', survey.id)
          .execute();
      },
    });
    const labels = await labelsInOrder(surveyId);
    expect(labels).toHaveLength(4);
    expect(
      labels.map((text) => (text.includes('Plantain') ? 'new' : text.includes('Banana') ? 'old' : '?')),
    ).toEqual(['old', 'new', 'new', 'new']);
  });

  it('ends at a batch that fails to be written: the batches before it stay, none after it is written', async () => {
    const failure = new Error('the checkpoint of batch 2 fails');
    let surveyId = '';
    await expect(
      run(start, {
        checkpoint: async (_db, percent, id) => {
          surveyId = id;
          if (percent === 50) throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(await labelsInOrder(surveyId)).toHaveLength(1);
  });
});
