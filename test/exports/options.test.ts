import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { FormClient } from '../engine/form-client.js';
import { block, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey, uploadQsf } from '../surveys/survey-helpers.js';
import { exportCsv, startExport } from './export-runs.js';
import { startExportWorker } from './exports-helpers.js';

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
/** Recorded at 12:00 UTC on 1, 2, 3 and 4 March 2026, in this order. */
const recorded: string[] = [];

const VALUES: Record<string, unknown>[] = [
  { QID1: '30', QID1_3_TEXT: 'Cherry', QID2_1: 1, QID3_TEXT: 'First', QID5: 9, panel: 'autumn' },
  { QID1: '10', QID2_2: 1, QID3_TEXT: 'Second', QID5: 3, panel: 'winter' },
  { QID3_TEXT: 'Third' },
  { QID1: '20', QID3_TEXT: 'Fourth', panel: 'spring' },
];

beforeAll(async () => {
  clock = manualClock('2026-03-01T12:00:00Z');
  t = await buildTestApp({ clock });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  for (const values of VALUES) {
    const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    recorded.push(res.body.result.responseId);
    clock.advance(24 * 3600 * 1000);
  }
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const run = (options: Record<string, unknown>) => exportCsv(t, org.apiToken, surveyId, options);

describe('export filters return exactly the expected responses', () => {
  it('startDate is inclusive and endDate exclusive (recorded date)', async () => {
    const { responseIds } = await run({
      startDate: '2026-03-02T12:00:00Z',
      endDate: '2026-03-04T12:00:00Z',
    });
    expect(responseIds).toEqual([recorded[1], recorded[2]]);
  });

  it('a startDate a second after a response leaves it out', async () => {
    const { responseIds } = await run({ startDate: '2026-03-03T12:00:01Z' });
    expect(responseIds).toEqual([recorded[3]]);
  });

  it('limit takes the first N in recorded order, after the date filter', async () => {
    expect((await run({ limit: 2 })).responseIds).toEqual([recorded[0], recorded[1]]);
    expect((await run({ startDate: '2026-03-02T00:00:00Z', limit: 1 })).responseIds).toEqual([recorded[1]]);
  });

  it('responseIds takes only those responses, in recorded order', async () => {
    const ids = [recorded[3], recorded[1], 'R_doesNotExist0000'];
    expect((await run({ responseIds: ids })).responseIds).toEqual([recorded[1], recorded[3]]);
    expect((await run({ responseIds: ids, limit: 1 })).responseIds).toEqual([recorded[1]]);
    const empty = await startExport(t, org.apiToken, surveyId, { format: 'csv', responseIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.meta.error.errorMessage).toContain('responseIds');
  });

  it('a range with no response gives the header rows and no data', async () => {
    const result = await run({ startDate: '2027-01-01T00:00:00Z' });
    expect(result.names).toContain('ResponseId');
    expect(result.data).toEqual([]);
  });
});

describe('column selection', () => {
  it('keeps exactly the selected questions, embedded fields and metadata, in layout order', async () => {
    const full = await run({});
    const selected = await run({
      questionIds: ['QID5', 'QID1'],
      embeddedDataIds: ['panel'],
      surveyMetadataIds: ['_recordId', 'recordedDate'],
    });
    const importIdOf = (json: string) => JSON.parse(json).ImportId as string;
    const wanted = full.importIds.flatMap((json, index) => {
      const id = importIdOf(json);
      const keep = /^QID(1|5)(_|$)/.test(id) || ['panel', '_recordId', 'recordedDate'].includes(id);
      return keep ? [index] : [];
    });
    expect(selected.names).toEqual(wanted.map((index) => full.names[index]));
    expect(selected.names.slice(0, 2)).toEqual(['RecordedDate', 'ResponseId']);
    expect(selected.names.at(-1)).toBe('panel');
    expect(selected.names).toEqual(expect.arrayContaining(['fruit', 'fruit_3_TEXT']));
    expect(selected.names.some((name) => /^Q2_|^comment$|^StartDate$/.test(name))).toBe(false);
    // The values are those of the full export, column for column.
    expect(selected.data).toEqual(full.data.map((row) => wanted.map((index) => row[index])));
    expect(selected.responseIds).toEqual(recorded);
  });

  it('an empty list selects no column of that kind', async () => {
    const { names, importIds } = await run({ questionIds: [], embeddedDataIds: [] });
    expect(names.slice(0, 17)).toContain('ResponseId');
    expect(
      importIds.map((json) => JSON.parse(json).ImportId).filter((id) => /^QID|^panel$/.test(id)),
    ).toEqual([]);
  });

  it.each([
    [{ questionIds: ['QID1', 'QID77'] }, 'questionIds', 'QID77'],
    [{ embeddedDataIds: ['panel', 'nosuchfield'] }, 'embeddedDataIds', 'nosuchfield'],
    [{ surveyMetadataIds: ['startDate', 'browser'] }, 'surveyMetadataIds', 'browser'],
  ])('an unknown id is a 400 naming the field and the value: %j', async (body, field, value) => {
    const res = await startExport(t, org.apiToken, surveyId, { format: 'csv', ...body });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toContain(field);
    expect(res.body.meta.error.errorMessage).toContain(value);
  });
});

describe('decimalSeparator', () => {
  let sliderSurvey: string;
  beforeAll(async () => {
    const doc = qsf({
      blocks: [block('BL_slider', ['QID1'])],
      flow: [{ Type: 'Block', ID: 'BL_slider', FlowID: 'FL_2' }],
      questions: [question('QID1', { type: 'Slider', selector: 'HSLIDER', choices: ['Rate'] })],
    });
    const res = await uploadQsf(t, org.apiToken, JSON.stringify(doc));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sliderSurvey = res.body.result.id;
    const values = { QID1_1: 4.5 };
    const posted = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${sliderSurvey}/responses`, {
      values,
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
  });

  const sliderValue = async (options: Record<string, unknown>) => {
    const result = await exportCsv(t, org.apiToken, sliderSurvey, options);
    const index = result.importIds.findIndex((json) => JSON.parse(json).ImportId === 'QID1_1');
    expect(index).toBeGreaterThanOrEqual(0);
    return result.data[0]?.[index];
  };

  it('"," writes decimal commas like formatDecimalAsComma, "." decimal points', async () => {
    expect(await sliderValue({ decimalSeparator: ',' })).toBe('4,5');
    expect(await sliderValue({ formatDecimalAsComma: true })).toBe('4,5');
    expect(await sliderValue({ decimalSeparator: '.' })).toBe('4.5');
    expect(await sliderValue({ decimalSeparator: ',', formatDecimalAsComma: true })).toBe('4,5');
  });

  it.each([
    [{ decimalSeparator: ';' }],
    [{ decimalSeparator: '' }],
    [{ decimalSeparator: '.', formatDecimalAsComma: true }],
  ])('%j is a 400 naming decimalSeparator', async (body) => {
    const res = await startExport(t, org.apiToken, sliderSurvey, { format: 'csv', ...body });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toContain('decimalSeparator');
  });
});

describe('exportResponsesInProgress', () => {
  let sessions: { answered: string; opened: string };

  beforeAll(async () => {
    const put = await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const form = `/jfe/form/${surveyId}`;
    // One respondent answers the first page and stops; another only opens the survey.
    const answering = new FormClient(t);
    const first = await answering.get(form);
    const second = await answering.post(form, first.body, { QID1: '1' });
    expect(second.body).toContain('QID3_TEXT');
    clock.advance(60_000);
    const opening = new FormClient(t);
    await opening.get(form);
    // A third finishes (Banana ends the survey after the first block): recorded, not in progress.
    const finishing = new FormClient(t);
    let page = await finishing.get(form);
    page = await finishing.post(form, page.body, { QID1: '2' });
    page = await finishing.post(form, page.body, { QID3_TEXT: 'done' });
    expect(page.body).toContain('recorded');
    const ids = (await run({ exportResponsesInProgress: true })).responseIds;
    expect(ids).toHaveLength(2);
    sessions = { answered: ids[0] as string, opened: ids[1] as string };
  });

  it('exports the open sessions with their partial answers, Finished 0 and their progress', async () => {
    const result = await run({ exportResponsesInProgress: true });
    const col = (name: string) => result.names.indexOf(name);
    expect(result.responseIds).toEqual([sessions.answered, sessions.opened]);
    expect(sessions.answered).toMatch(/^FS_/);
    const [answered, opened] = result.data as [string[], string[]];
    expect(answered[col('Finished')]).toBe('0');
    expect(answered[col('fruit')]).toBe('10');
    expect(answered[col('comment')]).toBe('');
    expect(answered[col('panel')]).toBe('spring');
    expect(answered[col('StartDate')]).toBe('2026-03-05 12:00:00');
    const progress = Number(answered[col('Progress')]);
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(100);
    expect(opened[col('Finished')]).toBe('0');
    expect(opened[col('Progress')]).toBe('0');
    expect(opened[col('fruit')]).toBe('');
    expect(opened[col('StartDate')]).toBe('2026-03-05 12:01:00');
  });

  it('the recorded export does not hold the sessions in progress', async () => {
    const ids = (await run({})).responseIds;
    expect(ids.slice(0, 4)).toEqual(recorded);
    expect(ids).toHaveLength(5);
    expect(ids).not.toContain(sessions.answered);
    expect(ids).not.toContain(sessions.opened);
  });

  it('takes the column selection and limit too', async () => {
    const result = await run({
      exportResponsesInProgress: true,
      surveyMetadataIds: ['_recordId', 'finished'],
      questionIds: ['QID1'],
      embeddedDataIds: [],
      limit: 1,
    });
    expect(result.names).toEqual(['Finished', 'ResponseId', 'fruit', 'fruit_3_TEXT']);
    expect(result.data).toEqual([['0', sessions.answered, '10', '']]);
  });
});
