// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written as QSF files write it
/**
 * Issue 13, the rest (through the sessions API, which runs the pages' engine): "evenly present" block
 * subsets and block randomizers balanced by stored presentation counts, and display and skip logic inside a
 * loop & merge block reading THIS loop's answers and merge fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey } from './engine-helpers.js';
import { block, blockFlow, condition, qsf, question, selected } from './qsf-builder.js';

let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t?.close();
});

const sessions = (surveyId: string) => `/API/v3/surveys/${surveyId}/sessions`;
type Screen = {
  done: unknown;
  responseId?: string;
  questions: { questionId: string; questionText: string }[];
};

/** Takes a session to its end, answering each page with `answer(page)`; returns the pages and the response id. */
async function takeSession(surveyId: string, answer: (page: Screen) => object = () => ({})) {
  const started = await t.call(org.apiToken, 'POST', sessions(surveyId), { language: 'EN' });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const sessionId = started.body.result.sessionId as string;
  let screen = started.body.result as Screen;
  const pages: Screen[] = [];
  while (screen.done === false) {
    pages.push(screen);
    const res = await t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, {
      advance: true,
      responses: answer(screen),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    screen = res.body.result as Screen;
  }
  return { pages, responseId: screen.responseId as string };
}

const spread = (counts: number[]) => Math.max(...counts) - Math.min(...counts);

describe('evenly present', () => {
  const ITEMS = ['QID1', 'QID2', 'QID3', 'QID4', 'QID5', 'QID6'];
  const DOC = qsf({
    blocks: [
      block('BL_1', ITEMS, {
        RandomizeQuestions: 'RandomWithOnlyX',
        Randomization: { Advanced: null, TotalRandSubset: 2, QuestionsPerPage: 0, EvenPresentation: true },
      }),
      block('BL_2', ['QID7']),
      block('BL_3', ['QID8']),
      block('BL_4', ['QID9']),
    ],
    questions: [...ITEMS, 'QID7', 'QID8', 'QID9'].map((id) =>
      question(id, { type: 'DB', selector: 'TB', text: `Statement ${id}` }),
    ),
    flow: [
      blockFlow('BL_1', 'FL_2'),
      {
        Type: 'BlockRandomizer',
        FlowID: 'FL_3',
        SubSet: 1,
        EvenPresentation: true,
        Flow: [blockFlow('BL_2', 'FL_4'), blockFlow('BL_3', 'FL_5'), blockFlow('BL_4', 'FL_6')],
      },
    ],
  });

  it('balances a block subset and a block randomizer by the presentations counted so far', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const shown = new Map<string, number>();
    for (let n = 0; n < 9; n++) {
      const { pages } = await takeSession(surveyId);
      // One page of 2 of the 6 statements, then one page of the randomizer's one block.
      expect(pages.map((p) => p.questions.length)).toEqual([2, 1]);
      for (const q of pages.flatMap((p) => p.questions))
        shown.set(q.questionId, (shown.get(q.questionId) ?? 0) + 1);
    }
    // 9 sessions × 2 of 6 statements: each exactly 3 times; 9 × 1 of 3 blocks: each 3 times.
    expect(ITEMS.map((id) => shown.get(id) ?? 0)).toEqual([3, 3, 3, 3, 3, 3]);
    expect(['QID7', 'QID8', 'QID9'].map((id) => shown.get(id) ?? 0)).toEqual([3, 3, 3]);

    // The stored counts say the same, per element and item.
    const rows = await t.database.db
      .selectFrom('engine_presentation_counts')
      .select(['element_id', 'item_id', 'presented'])
      .where('survey_id', '=', surveyId)
      .execute();
    const counted = (element: string) =>
      rows.filter((r) => r.element_id === element).map((r) => [r.item_id, Number(r.presented)]);
    expect(Object.fromEntries(counted('BL_1'))).toEqual(Object.fromEntries(ITEMS.map((id) => [id, 3])));
    expect(Object.fromEntries(counted('FL_3'))).toEqual({ FL_4: 3, FL_5: 3, FL_6: 3 });

    // A tenth and eleventh respondent keep the spread at 1.
    for (let n = 0; n < 2; n++) await takeSession(surveyId);
    const after = await t.database.db
      .selectFrom('engine_presentation_counts')
      .select(['element_id', 'presented'])
      .where('survey_id', '=', surveyId)
      .execute();
    for (const element of ['BL_1', 'FL_3']) {
      const counts = after.filter((r) => r.element_id === element).map((r) => Number(r.presented));
      expect(spread(counts)).toBeLessThanOrEqual(1);
    }
  });

  it('counts a session only once it is recorded, and its page stays the same until then', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const started = await t.call(org.apiToken, 'POST', sessions(surveyId), { language: 'EN' });
    const sessionId = started.body.result.sessionId as string;
    const first = (started.body.result as Screen).questions.map((q) => q.questionId);
    const again = await t.call(org.apiToken, 'GET', `${sessions(surveyId)}/${sessionId}`);
    expect((again.body.result as Screen).questions.map((q) => q.questionId)).toEqual(first);
    const none = await t.database.db
      .selectFrom('engine_presentation_counts')
      .select('item_id')
      .where('survey_id', '=', surveyId)
      .execute();
    expect(none).toEqual([]);
    // The next respondent, with nothing counted yet, is not bound to get the same statements; once the
    // first one is recorded, the next gets two others.
    await t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, {
      advance: true,
      responses: {},
    });
    await t.call(org.apiToken, 'POST', `${sessions(surveyId)}/${sessionId}`, {
      advance: true,
      responses: {},
    });
    const { pages } = await takeSession(surveyId);
    const second = pages[0]?.questions.map((q) => q.questionId) ?? [];
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });
});

describe('logic inside a loop', () => {
  const FRUIT = { 1: 'apples', 2: 'bananas', 3: 'cherries' };
  const DOC = qsf({
    blocks: [
      block('BL_1', ['QID10', '|', 'QID11', 'QID12'], {
        Looping: 'Static',
        LoopingOptions: {
          Static: Object.fromEntries(Object.entries(FRUIT).map(([id, name]) => [id, { 1: name }])),
          Randomization: 'None',
        },
      }),
      block('BL_2', ['QID13']),
    ],
    questions: [
      question('QID10', {
        type: 'MC',
        selector: 'SAVR',
        text: 'Do you like ${lm://Field/1}?',
        choices: ['Yes', 'No', 'Skip'],
        extra: {
          SkipLogic: [
            {
              ChoiceLocator: 'q://QID10/SelectableChoice/3',
              Condition: 'Selected',
              SkipToDestination: 'ENDOFBLOCK',
            },
          ],
        },
      }),
      // Shown when THIS loop's QID10 is Yes.
      question('QID11', {
        type: 'TE',
        selector: 'SL',
        text: 'What do you like about ${lm://Field/1}?',
        extra: { DisplayLogic: selected('QID10', '1') },
      }),
      // Shown in the loop whose merge field 1 is "bananas".
      question('QID12', {
        type: 'DB',
        selector: 'TB',
        text: 'Bananas are berries.',
        extra: {
          DisplayLogic: condition({
            LogicType: 'LoopAndMerge',
            LeftOperand: 'lm://Field/1',
            Operator: 'EqualTo',
            RightOperand: 'bananas',
          }),
        },
      }),
      // Outside the loop, a question's own id names no loop's answer.
      question('QID13', {
        type: 'DB',
        selector: 'TB',
        text: 'Thanks.',
        extra: { DisplayLogic: selected('QID10', '1', 'NotSelected') },
      }),
    ],
    flow: [blockFlow('BL_1', 'FL_2'), blockFlow('BL_2', 'FL_3')],
  });

  it("shows and skips by this loop's answer and merge fields, not another loop's", async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const choice: Record<string, string> = { apples: '1', bananas: '2', cherries: '3' };
    const { pages, responseId } = await takeSession(surveyId, (page) => {
      const [first] = page.questions;
      if (first?.questionId === 'QID10') {
        const fruit = /like (\w+)\?/.exec(first.questionText)?.[1] ?? '';
        return { QID10: { [choice[fruit] ?? '']: { selected: true } } };
      }
      return page.questions.some((q) => q.questionId === 'QID11') ? { QID11: 'crunchy' } : {};
    });
    expect(pages.map((p) => p.questions.map((q) => q.questionId))).toEqual([
      ['QID10'], // apples: Yes
      ['QID11'], // … asks what about apples
      ['QID10'], // bananas: No
      ['QID12'], // … the bananas page, without QID11 (apples' Yes is not this loop's)
      ['QID10'], // cherries: Skip → the end of this loop's block
      ['QID13'],
    ]);
    expect(pages[1]?.questions[0]?.questionText).toContain('apples');
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    const values = res.body.result.values as Record<string, unknown>;
    expect([values['1_QID10'], values['2_QID10'], values['3_QID10']]).toEqual([1, 2, 3]);
    expect(values['1_QID11_TEXT']).toBe('crunchy');
    expect(values['2_QID11_TEXT']).toBeUndefined();
  });
});
