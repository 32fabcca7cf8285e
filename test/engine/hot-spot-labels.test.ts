/**
 * Hot spot value labels (issue 14 leftover), on both databases: an on/off hot spot records 1 On / 2 Off
 * and a like/dislike one 1 Like / 2 Dislike (answers-map.ts); the .sav labels those values (read back with
 * pspp), the csv with `useLabels` writes the words, and the response's labels over the API say the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { downloadFile, exportCsv, exportsBase, startExport } from '../exports/export-runs.js';
import { startExportWorker, unzip, waitForExport } from '../exports/exports-helpers.js';
import { dataRows, readSavWithPspp, valueLabelLines } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey } from './engine-helpers.js';
import { mapImage, mapShapeQuestions, RIGHT_BOX } from './map-shapes-survey.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
const responseIds: string[] = [];

/** An on/off hot spot (QID4), the like/dislike hot spot QID81 and the heat map QID82, on one page. */
function hotSpotSurvey() {
  return qsf({
    blocks: [block('BL_hotspotlabels001', ['QID4', 'QID81', 'QID82'])],
    flow: [blockFlow('BL_hotspotlabels001', 'FL_2')],
    questions: [
      question('QID4', {
        type: 'HotSpot',
        selector: 'OnOff',
        text: 'Which parts do you like?',
        choices: ['Left', 'Right'],
        extra: {
          Graphics: mapImage(),
          Regions: [
            { ChoiceID: '1', X: 0, Y: 0, Width: 200, Height: 200 },
            { ChoiceID: '2', ...RIGHT_BOX },
          ],
        },
      }),
      ...mapShapeQuestions(),
    ],
  });
}

async function take(responses: object): Promise<string> {
  const url = `/API/v3/surveys/${surveyId}/sessions`;
  const created = await t.call(org.apiToken, 'POST', url, {});
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const end = await t.call(org.apiToken, 'POST', `${url}/${created.body.result.sessionId}`, {
    advance: true,
    responses,
  });
  expect([end.status, end.body.result?.status], JSON.stringify(end.body)).toEqual([200, 'complete']);
  return end.body.result.responseId as string;
}

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startExportWorker(t);
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(hotSpotSurvey()));
  responseIds.push(await take({ QID4: { 1: 'on', 2: 'off' }, QID81: { 1: 'like', 2: 'dislike' } }));
  responseIds.push(await take({ QID4: { 2: 'on' }, QID81: { 1: 'dislike' }, QID82: { region: '2' } }));
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const HOT_SPOT_COLUMNS = ['Q4_1', 'Q4_2', 'Q81_1', 'Q81_2'];

describe('hot spot value labels', () => {
  it('labels the recorded states in the response over the API', async () => {
    const read = async (id: string) =>
      (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${id}`)).body.result;
    const [first, second] = await Promise.all(responseIds.map(read));
    const pick = (r: { values: Record<string, unknown>; labels: Record<string, unknown> }) =>
      ['QID4_1', 'QID4_2', 'QID81_1', 'QID81_2'].map((k) => [r.values[k], r.labels[k]]);
    expect(pick(first)).toEqual([
      [1, 'On'],
      [2, 'Off'],
      [1, 'Like'],
      [2, 'Dislike'],
    ]);
    expect(pick(second)).toEqual([
      [2, 'Off'],
      [1, 'On'],
      [2, 'Dislike'],
      [undefined, undefined],
    ]);
    // A heat map region is labelled by its name (its description: it names no choice).
    expect([second.values.QID82_2, second.labels.QID82_2]).toEqual([1, 'Bar']);
  });

  it('csv: the numbers, and the words with useLabels', async () => {
    const cells = async (options: Record<string, unknown>) => {
      const csv = await exportCsv(t, org.apiToken, surveyId, options);
      return responseIds.map((id) => {
        const row = csv.data[csv.responseIds.indexOf(id)] ?? [];
        return HOT_SPOT_COLUMNS.map((name) => row[csv.names.indexOf(name)]);
      });
    };
    expect(await cells({})).toEqual([
      ['1', '2', '1', '2'],
      ['2', '1', '2', ''],
    ]);
    expect(await cells({ useLabels: true })).toEqual([
      ['On', 'Off', 'Like', 'Dislike'],
      ['Off', 'On', 'Dislike', ''],
    ]);
  });

  it('.sav: the hot spot variables are whole numbers with On/Off and Like/Dislike value labels', async () => {
    const started = await startExport(t, org.apiToken, surveyId, { format: 'spss' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const progress = `${exportsBase(surveyId)}/${started.body.result.progressId}`;
    const { last } = await waitForExport(t, org.apiToken, progress);
    expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
    const file = await downloadFile(
      t,
      org.apiToken,
      `${exportsBase(surveyId)}/${last.body.result.fileId}/file`,
    );
    const sav = [...(await unzip(file.bytes)).values()][0] as Buffer;
    const { tables, log } = await readSavWithPspp(sav);
    expect(log.split('\n').filter((line) => /warning|error/i.test(line))).toEqual([]);

    const [head = [], ...variables] = tables.get('Variables') ?? [];
    const column = (title: string) => head.indexOf(title);
    const byName = new Map(variables.map((v) => [v[0], v]));
    expect(HOT_SPOT_COLUMNS.map((n) => byName.get(n)?.[column('Print Format')])).toEqual(
      Array(4).fill('F40.0'),
    );
    // pspp's Value Labels table names a variable by its label; map the labels back to the names.
    const nameOf = new Map(variables.map((v) => [v[column('Label')], v[0]]));
    const valueLabels = new Map(
      [...valueLabelLines(tables)].map(([label, line]) => [nameOf.get(label) ?? label, line]),
    );
    expect(HOT_SPOT_COLUMNS.map((n) => [n, valueLabels.get(n)])).toEqual([
      ['Q4_1', '1=On 2=Off'],
      ['Q4_2', '1=On 2=Off'],
      ['Q81_1', '1=Like 2=Dislike'],
      ['Q81_2', '1=Like 2=Dislike'],
    ]);
    // The heat map's click position is an amount: no labels; its regions are labelled by their names.
    expect(valueLabels.has('Q82_1_x')).toBe(false);
    expect([valueLabels.get('Q82_1'), valueLabels.get('Q82_2')]).toEqual(['1=Stage', '1=Bar']);
    const rows = dataRows(tables).map((r) => HOT_SPOT_COLUMNS.map((n) => r.get(n)?.trim()));
    expect(rows).toEqual([
      ['1', '2', '1', '2'],
      ['2', '1', '2', '.'],
    ]);
  });
});
