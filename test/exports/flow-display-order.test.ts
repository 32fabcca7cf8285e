/**
 * Issue 13, last item: a block randomizer's display order. The response records `FL_n_DO` (the children
 * in the order presented: `BL_x` for a block, else the child's FlowID), and an export with
 * `includeDisplayOrder` writes `FL_n_DO_<child>` positions after the question columns, before the embedded
 * data, or one joined `FL_n_DO` column without breakout (flow-display-order.ts).
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

/** Block → its one question; the block descriptions have spaces, dropped in the column names. */
const BLOCKS: Record<string, string> = { BL_1: 'QID1', BL_2: 'QID2', BL_3: 'QID3' };
const NAMES: Record<string, string> = { BL_1: 'Blockone', BL_2: 'Blocktwo', BL_3: 'Blockthree' };

/** A randomizer FL_5 over BL_1, BL_2 and (third) BL_3 or a group FL_9 holding it; then BL_4. */
function survey(subset: number, groupThird: boolean) {
  const third = groupThird
    ? { Type: 'Group', FlowID: 'FL_9', Description: 'Group', Flow: [blockFlow('BL_3', 'FL_8')] }
    : blockFlow('BL_3', 'FL_8');
  return qsf({
    blocks: [
      ...Object.entries(BLOCKS).map(([id, qid]) => ({
        ...block(id, [qid]),
        Description: NAMES[id]?.replace('Block', 'Block '),
      })),
      block('BL_4', ['QID4']),
    ],
    questions: ['QID1', 'QID2', 'QID3', 'QID4'].map((id) => question(id, { type: 'TE', selector: 'SL' })),
    flow: [
      {
        Type: 'EmbeddedData',
        FlowID: 'FL_2',
        EmbeddedData: [{ Field: 'source', Type: 'Custom', Value: 'x' }],
      },
      {
        Type: 'BlockRandomizer',
        FlowID: 'FL_5',
        SubSet: subset,
        Flow: [blockFlow('BL_1', 'FL_6'), blockFlow('BL_2', 'FL_7'), third],
      },
      blockFlow('BL_4', 'FL_10'),
    ],
  });
}

/** Takes the survey through the sessions API; answers the response and the blocks in page order. */
async function respond(surveyId: string): Promise<{ responseId: string; blocks: string[] }> {
  const base = `/API/v3/surveys/${surveyId}/sessions`;
  const started = await t.call(org.apiToken, 'POST', base, { language: 'EN' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const id = started.body.result.sessionId as string;
  let screen = started.body.result;
  const blocks: string[] = [];
  while (screen.done === false) {
    const qid = screen.questions[0].questionId as string;
    const blockId = Object.keys(BLOCKS).find((b) => BLOCKS[b] === qid);
    if (blockId) blocks.push(blockId);
    const res = await t.call(org.apiToken, 'POST', `${base}/${id}`, {
      advance: true,
      responses: { [qid]: `answer ${qid}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    screen = res.body.result;
  }
  return { responseId: screen.responseId as string, blocks };
}

async function recorded(surveyId: string, responseId: string): Promise<unknown> {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.result.values as Record<string, unknown>).FL_5_DO;
}

describe('block randomizer display order', () => {
  it('records the presented order and exports it as positions, or joined without breakout', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(survey(0, false)));
    const runs = [await respond(surveyId), await respond(surveyId), await respond(surveyId)];
    for (const run of runs) {
      expect([...run.blocks].sort()).toEqual(Object.keys(BLOCKS));
      expect(await recorded(surveyId, run.responseId)).toBe(run.blocks.join('|'));
    }

    const split = await exportCsv(t, org.apiToken, surveyId, { includeDisplayOrder: true });
    const names = Object.keys(BLOCKS).map((b) => `FL_5_DO_${NAMES[b]}`);
    const at = split.names.indexOf(names[0] as string);
    // After the last question column, before the embedded data.
    expect(split.names.slice(at - 1, at + 4)).toEqual(['Q4', ...names, 'source']);
    expect(split.importIds.slice(at, at + 3)).toEqual(
      Object.keys(BLOCKS).map((b) => JSON.stringify({ ImportId: 'FL_5_DO', choiceId: NAMES[b] })),
    );
    for (const run of runs) {
      const row = split.data[split.responseIds.indexOf(run.responseId)] ?? [];
      expect(Object.keys(BLOCKS).map((_, i) => row[at + i])).toEqual(
        Object.keys(BLOCKS).map((b) => String(run.blocks.indexOf(b) + 1)),
      );
    }

    const joined = await exportCsv(t, org.apiToken, surveyId, {
      includeDisplayOrder: true,
      breakoutSets: false,
    });
    const column = joined.names.indexOf('FL_5_DO');
    expect(joined.importIds[column]).toBe(JSON.stringify({ ImportId: 'FL_5_DO' }));
    expect(joined.names.filter((n) => n.startsWith('FL_5_DO'))).toEqual(['FL_5_DO']);
    for (const run of runs) {
      const row = joined.data[joined.responseIds.indexOf(run.responseId)] ?? [];
      expect(row[column]).toBe(run.blocks.map((b) => NAMES[b]).join('|'));
    }

    const plain = await exportCsv(t, org.apiToken, surveyId);
    expect(plain.names.filter((n) => n.startsWith('FL_'))).toEqual([]);
  });

  it('leaves a child a subset did not present empty and names a non-block child by its FlowID', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(survey(2, true)));
    const runs = [await respond(surveyId), await respond(surveyId), await respond(surveyId)];
    // The group FL_9 is recorded by its FlowID; its block BL_3 is what the pages show.
    const child = (b: string) => (b === 'BL_3' ? 'FL_9' : b);
    for (const run of runs) {
      expect(run.blocks).toHaveLength(2);
      expect(await recorded(surveyId, run.responseId)).toBe(run.blocks.map(child).join('|'));
    }

    const split = await exportCsv(t, org.apiToken, surveyId, { includeDisplayOrder: true });
    const names = ['FL_5_DO_Blockone', 'FL_5_DO_Blocktwo', 'FL_5_DO_FL_9'];
    const at = split.names.indexOf('FL_5_DO_Blockone');
    expect(split.names.slice(at, at + 3)).toEqual(names);
    expect(split.importIds[at + 2]).toBe(JSON.stringify({ ImportId: 'FL_5_DO', choiceId: 'FL_9' }));
    for (const run of runs) {
      const row = split.data[split.responseIds.indexOf(run.responseId)] ?? [];
      const want = Object.keys(BLOCKS).map((b) =>
        run.blocks.includes(b) ? String(run.blocks.indexOf(b) + 1) : '',
      );
      expect([row[at], row[at + 1], row[at + 2]]).toEqual(want);
    }

    const joined = await exportCsv(t, org.apiToken, surveyId, {
      includeDisplayOrder: true,
      breakoutSets: false,
    });
    const column = joined.names.indexOf('FL_5_DO');
    for (const run of runs) {
      const row = joined.data[joined.responseIds.indexOf(run.responseId)] ?? [];
      expect(row[column]).toBe(run.blocks.map((b) => (b === 'BL_3' ? 'FL_9' : NAMES[b])).join('|'));
    }
  });
});
