import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { startExportWorker, unzip, waitForExport } from './exports-helpers.js';

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
const responseIds: string[] = [];

const ANSWERS: Record<string, unknown>[] = [
  {
    QID1: '30',
    QID1_3_TEXT: 'Cherry',
    QID2_1: 1,
    QID3_TEXT: 'Lovely, "really"',
    QID4_1: 5,
    QID5: 9,
    panel: 'autumn',
  },
  { QID1: '10', QID2_2: 1, QID3_TEXT: 'Meh', QID5: 3, panel: 'winter' },
  { QID3_TEXT: 'Third' },
];

beforeAll(async () => {
  clock = manualClock('2026-03-01T12:00:00Z');
  t = await buildTestApp({ clock });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  for (const values of ANSWERS) {
    const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    responseIds.push(res.body.result.responseId);
    clock.advance(24 * 3600 * 1000); // recorded on 1, 2 and 3 March
  }
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** Starts an export with the legacy spelling, waits for it, and answers the downloaded zip's one entry. */
async function legacyExport(body: Record<string, unknown>) {
  const started = await t.call(org.apiToken, 'POST', '/API/v3/responseexports', { surveyId, ...body });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.result.id as string;
  expect(id).toMatch(/^ES_[A-Za-z0-9]{15}$/);
  const { last, seen } = await waitForExport(t, org.apiToken, `/API/v3/responseexports/${id}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  expect(last.body.result.percentComplete).toBe(100);
  expect(seen.every((p, i) => i === 0 || p >= (seen[i - 1] as number))).toBe(true);
  const fileUrl = new URL(last.body.result.file);
  expect(fileUrl.pathname).toBe(`/API/v3/responseexports/${id}/file`);
  const file = await download(fileUrl.pathname);
  expect(file.status).toBe(200);
  return { id, file };
}

/** The file as bytes (t.call would parse an application/x-ndjson body as JSON). */
async function download(url: string) {
  const raw = await t.app.inject({ method: 'GET', url, headers: { 'x-api-token': org.apiToken } });
  return { status: raw.statusCode, headers: raw.headers, bytes: raw.rawPayload };
}

async function onlyEntry(zip: Buffer) {
  const entries = await unzip(zip);
  expect([...entries.keys()]).toHaveLength(1);
  const [name, content] = [...entries.entries()][0] as [string, Buffer];
  return { name, content };
}

describe('response exports', () => {
  it('exports csv (legacy spelling): three header rows, the survey columns, the responses in recorded order', async () => {
    const { file } = await legacyExport({ format: 'csv' });
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['content-disposition']).toContain('Fruit survey.zip');
    const { name, content } = await onlyEntry(file.bytes);
    expect(name).toBe('Fruit survey.csv');
    const rows = parse(content.toString('utf8')) as string[][];
    const [names, texts, importIds] = rows as [string[], string[], string[]];
    expect(names.slice(0, 17)).toEqual([
      'StartDate',
      'EndDate',
      'Status',
      'IPAddress',
      'Progress',
      'Duration (in seconds)',
      'Finished',
      'RecordedDate',
      'ResponseId',
      'RecipientLastName',
      'RecipientFirstName',
      'RecipientEmail',
      'ExternalReference',
      'LocationLatitude',
      'LocationLongitude',
      'DistributionChannel',
      'UserLanguage',
    ]);
    const col = (name: string) => {
      const index = names.indexOf(name);
      expect(index, `column ${name} in ${names.join(',')}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    expect(names.slice(17)).toEqual(
      expect.arrayContaining(['fruit', 'fruit_3_TEXT', 'Q2_1', 'comment', 'panel']),
    );
    expect(col('fruit')).toBeLessThan(col('Q2_1'));
    expect(col('Q2_1')).toBeLessThan(col('panel'));
    expect(texts[col('StartDate')]).toBe('Start Date');
    expect(JSON.parse(importIds[col('StartDate')] as string)).toEqual({
      ImportId: 'startDate',
      timeZone: 'Z',
    });
    expect(JSON.parse(importIds[col('fruit')] as string)).toEqual({ ImportId: 'QID1' });
    expect(JSON.parse(importIds[col('Q2_1')] as string)).toEqual({ ImportId: 'QID2', choiceId: '1' });
    expect(JSON.parse(importIds[col('panel')] as string)).toEqual({ ImportId: 'panel' });
    const data = rows.slice(3);
    expect(data.map((row) => row[col('ResponseId')])).toEqual(responseIds);
    expect(data[0]?.[col('fruit')]).toBe('30');
    expect(data[0]?.[col('fruit_3_TEXT')]).toBe('Cherry');
    expect(data[0]?.[col('Q2_1')]).toBe('1');
    expect(data[0]?.[col('comment')]).toBe('Lovely, "really"');
    expect(data[0]?.[col('panel')]).toBe('autumn');
    expect(data[0]?.[col('RecordedDate')]).toBe('2026-03-01 12:00:00');
    expect(data[1]?.[col('fruit')]).toBe('10');
    expect(data[1]?.[col('Q2_1')]).toBe('');
    expect(data[2]?.[col('comment')]).toBe('Third');
  });

  it('exports json (current spelling) with labels, limited to a date range and a count', async () => {
    const base = `/API/v3/surveys/${surveyId}/export-responses`;
    const started = await t.call(org.apiToken, 'POST', base, {
      format: 'json',
      useLabels: true,
      startDate: '2026-03-02T00:00:00Z',
      endDate: '2026-03-04T00:00:00Z',
      limit: 1,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result).toMatchObject({ percentComplete: 0, status: 'inProgress' });
    const progressId = started.body.result.progressId as string;
    const { last } = await waitForExport(t, org.apiToken, `${base}/${progressId}`);
    expect(last.body.result).toMatchObject({ status: 'complete', percentComplete: 100 });
    const fileId = last.body.result.fileId as string;
    const file = await download(`${base}/${fileId}/file`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const { name, content } = await onlyEntry(file.bytes);
    expect(name).toBe('Fruit survey.json');
    const json = JSON.parse(content.toString('utf8'));
    expect(json.responses).toHaveLength(1);
    expect(json.responses[0].responseId).toBe(responseIds[1]);
    expect(json.responses[0].values.panel).toBe('winter');
    expect(json.responses[0].labels.QID1).toBe(json.responses[0].values.QID1);
    expect(typeof json.responses[0].values.QID1).toBe('string');
  });

  it('writes answer texts with useLabels and dates in the requested time zone', async () => {
    const { file } = await legacyExport({ format: 'csv', useLabels: true, timeZone: 'America/Denver' });
    const rows = parse((await onlyEntry(file.bytes)).content.toString('utf8')) as string[][];
    const [names, , importIds] = rows as [string[], string[], string[]];
    const col = (name: string) => names.indexOf(name);
    expect(JSON.parse(importIds[col('RecordedDate')] as string)).toEqual({
      ImportId: 'recordedDate',
      timeZone: 'America/Denver',
    });
    const stored = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${responseIds[0]}`,
    );
    const first = rows[3] as string[];
    expect(first[col('fruit')]).toBe(stored.body.result.labels.QID1);
    expect(first[col('fruit')]).not.toBe('30');
    expect(first[col('Finished')]).toBe('True');
    expect(first[col('Status')]).toBe('IP Address');
    expect(first[col('RecordedDate')]).toBe('2026-03-01 05:00:00');
  });

  it('writes the bare file with compress: false', async () => {
    const { file } = await legacyExport({ format: 'ndjson', compress: false });
    expect(file.headers['content-type']).toBe('application/x-ndjson');
    const lines = file.bytes.toString('utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).responseId)).toEqual(responseIds);
  });

  it('exports an spss file that pspp reads back', async () => {
    const { file } = await legacyExport({ format: 'spss' });
    const { name, content } = await onlyEntry(file.bytes);
    expect(name).toBe('Fruit survey.sav');
    const dir = await mkdtemp(join(tmpdir(), 'fieldwork-export-sav-'));
    try {
      const sav = join(dir, 'export.sav');
      await writeFile(sav, content);
      await writeFile(join(dir, 'read.sps'), `GET FILE='${sav}'.\nLIST VARIABLES=ResponseId fruit panel.\n`);
      await promisify(execFile)('pspp', [join(dir, 'read.sps'), '-o', join(dir, 'out.csv')]);
      const out = await readFile(join(dir, 'out.csv'), 'utf8');
      for (const id of responseIds) expect(out).toContain(id);
      expect(out).toContain('autumn');
      expect(out).toMatch(/30(\.00)?,autumn/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is organisation-scoped: another organisation gets 404 for the export, its file and the survey', async () => {
    const { id } = await legacyExport({ format: 'csv' });
    const other = await t.newOrganization();
    for (const url of [`/API/v3/responseexports/${id}`, `/API/v3/responseexports/${id}/file`]) {
      const res = await t.call(other.apiToken, 'GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body.meta.error.errorCode).toBe('FW_EXP_1');
    }
    const started = await t.call(other.apiToken, 'POST', '/API/v3/responseexports', {
      surveyId,
      format: 'csv',
    });
    expect(started.status).toBe(404);
    expect(started.body.meta.error.errorCode).toBe('GSI_2');
    const current = await t.call(other.apiToken, 'GET', `/API/v3/surveys/${surveyId}/export-responses/${id}`);
    expect(current.status).toBe(404);
  });

  it('answers 404 GSI_2 for an unknown survey and 400 naming the field for a bad format or date', async () => {
    const unknown = await t.call(org.apiToken, 'POST', '/API/v3/responseexports', {
      surveyId: 'SV_000000000000000',
      format: 'csv',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta.error.errorCode).toBe('GSI_2');
    const current = await t.call(
      org.apiToken,
      'POST',
      '/API/v3/surveys/SV_000000000000000/export-responses',
      {
        format: 'csv',
      },
    );
    expect(current.status).toBe(404);
    expect(current.body.meta.error.errorCode).toBe('GSI_2');
    const bad = await t.call(org.apiToken, 'POST', '/API/v3/responseexports', { surveyId, format: 'pdf' });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error.errorMessage).toContain('format');
    const badDate = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/export-responses`, {
      format: 'csv',
      startDate: 'yesterday',
    });
    expect(badDate.status).toBe(400);
    expect(badDate.body.meta.error.errorMessage).toContain('startDate');
    const missing = await t.call(org.apiToken, 'GET', '/API/v3/responseexports/ES_000000000000000');
    expect(missing.status).toBe(404);
  });
});
