/**
 * Issue 13, exports of research designs: a randomized block's display order (`<block>_DO_<tag>`, or one
 * `<block>_DO` column without breakout) with `includeDisplayOrder`, and `questionIds` keeping a loop
 * question's `<loop>_` prefixed columns and a block's display order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { block, blockFlow, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { exportCsv } from './export-runs.js';
import { startExportWorker } from './exports-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const ITEMS = ['QID1', 'QID2', 'QID3'];
const TAGS: Record<string, string> = { QID1: 'first', QID2: 'second', QID3: 'third' };
const DOC = qsf({
  blocks: [
    {
      ...block('BL_1', ITEMS, { RandomizeQuestions: 'true', Randomization: { QuestionsPerPage: 1 } }),
      Description: 'Item block',
    },
    block('BL_2', ['QID4'], {
      Looping: 'Static',
      LoopingOptions: { Static: { 1: { 1: 'tea' }, 2: { 1: 'coffee' } }, Randomization: 'None' },
    }),
  ],
  questions: [
    ...ITEMS.map((id) => {
      const q = question(id, { type: 'TE', selector: 'SL', text: `Say ${id}` });
      return { ...q, Payload: { ...(q.Payload as object), DataExportTag: TAGS[id] } };
    }),
    question('QID4', { type: 'TE', selector: 'SL', text: 'Why?' }),
  ],
  flow: [blockFlow('BL_1', 'FL_2'), blockFlow('BL_2', 'FL_3')],
});

async function respond(surveyId: string): Promise<{ responseId: string; order: string[] }> {
  const base = `/API/v3/surveys/${surveyId}/sessions`;
  const started = await t.call(org.apiToken, 'POST', base, { language: 'EN' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const id = started.body.result.sessionId as string;
  let screen = started.body.result;
  const order: string[] = [];
  while (screen.done === false) {
    const qid = screen.questions[0].questionId as string;
    if (qid !== 'QID4') order.push(qid);
    const res = await t.call(org.apiToken, 'POST', `${base}/${id}`, {
      advance: true,
      responses: { [qid]: `answer ${qid}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    screen = res.body.result;
  }
  return { responseId: screen.responseId, order };
}

describe('block display order and loop columns in exports', () => {
  it('exports a randomized block display order after its questions, split or joined', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const { responseId, order } = await respond(surveyId);
    expect([...order].sort()).toEqual(ITEMS);

    const split = await exportCsv(t, org.apiToken, surveyId, { includeDisplayOrder: true });
    const names = ['first', 'second', 'third'].map((tag) => `Itemblock_DO_${tag}`);
    // After the block's question columns, before the loop's.
    const at = split.names.indexOf(names[0] as string);
    expect(split.names.slice(at - 3, at + 4)).toEqual(['first', 'second', 'third', ...names, '1_Q4']);
    expect(split.importIds.slice(at, at + 3)).toEqual(
      ['first', 'second', 'third'].map((tag) => JSON.stringify({ ImportId: 'BL_1_DO', choiceId: tag })),
    );
    const row = split.data[split.responseIds.indexOf(responseId)] ?? [];
    expect(ITEMS.map((_, i) => row[at + i])).toEqual(ITEMS.map((id) => String(order.indexOf(id) + 1)));

    const joined = await exportCsv(t, org.apiToken, surveyId, {
      includeDisplayOrder: true,
      breakoutSets: false,
    });
    const column = joined.names.indexOf('Itemblock_DO');
    expect(joined.importIds[column]).toBe(JSON.stringify({ ImportId: 'BL_1_DO' }));
    const joinedRow = joined.data[joined.responseIds.indexOf(responseId)] ?? [];
    expect(joinedRow[column]).toBe(order.map((id) => TAGS[id]).join('|'));

    const plain = await exportCsv(t, org.apiToken, surveyId);
    expect(plain.names.filter((n) => n.includes('_DO'))).toEqual([]);
  });

  it('keeps the loop columns and the block display order of the selected questions', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const { responseId } = await respond(surveyId);
    const loops = await exportCsv(t, org.apiToken, surveyId, {
      questionIds: ['QID4'],
      includeDisplayOrder: true,
    });
    const questionNames = loops.names.filter((n) => /^(\d_Q4|Itemblock_DO.*|first|second|third)$/.test(n));
    expect(questionNames).toEqual(['1_Q4', '2_Q4']);
    const row = loops.data[loops.responseIds.indexOf(responseId)] ?? [];
    expect(row[loops.names.indexOf('2_Q4')]).toBe('answer QID4');

    const one = await exportCsv(t, org.apiToken, surveyId, {
      questionIds: ['QID2'],
      includeDisplayOrder: true,
    });
    expect(one.names.filter((n) => /^(\d_Q4|Itemblock_DO.*|first|second|third)$/.test(n))).toEqual([
      'second',
      'Itemblock_DO_first',
      'Itemblock_DO_second',
      'Itemblock_DO_third',
    ]);
  });
});
