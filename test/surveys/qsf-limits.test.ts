/**
 * Issue 19 items 5 and 8, QSF uploads: a file over 20 MB is 413 like every oversized upload, a survey past
 * the limits no real survey reaches is 400 FW_SUR_2 naming the limit (50,000 questions fit in 20 MB and
 * made every read of the survey take seconds), nesting that would overflow the stack is refused, and
 * text no engine stores is 400 naming where it is. Nothing is stored in each case. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { QSF_LIMITS } from '../../src/modules/surveys/qsf-limits.js';
import { block, blockFlow, element, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from './survey-helpers.js';

let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;

/** A survey of `count` single-answer questions with `choices` choices each, in one block. */
function survey(count: number, choices = 2, extra: Partial<Parameters<typeof qsf>[0]> = {}) {
  const ids = Array.from({ length: count }, (_, i) => `QID${i + 1}`);
  const labels = Array.from({ length: choices }, (_, i) => `Choice ${i + 1}`);
  return qsf({
    questions: ids.map((id) => question(id, { type: 'MC', selector: 'SAVR', choices: labels })),
    blocks: [block('BL_1', ids)],
    flow: [blockFlow('BL_1', 'FL_2')],
    ...extra,
  });
}

const surveyCount = async () =>
  (await t.call(org.apiToken, 'GET', '/API/v3/surveys?pageSize=1000')).body.result.elements.length;

/** Uploads the file and expects a refusal with that status and code, and no survey stored. */
async function refused(file: string | Buffer, status: number, code: string, message: RegExp) {
  const before = await surveyCount();
  const res = await uploadQsf(t, org.apiToken, file);
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(status);
  expect(res.body.meta.error.errorCode).toBe(code);
  expect(res.body.meta.error.errorMessage).toMatch(message);
  expect(await surveyCount()).toBe(before);
}

/** The document's text with `levels` arrays inside one another where it says DEEP (JSON.stringify could not write it). */
const withDeep = (doc: Json, levels: number) =>
  JSON.stringify(doc).replace('"DEEP"', `${'['.repeat(levels)}${']'.repeat(levels)}`);

/** The smallest question a QSF file can hold, as a real file writes a descriptive text. */
const tinyQuestion = (n: number) =>
  element('SQ', { QuestionID: `QID${n}`, QuestionType: 'DB', Selector: 'TB', QuestionText: 'Q' }, `QID${n}`);

describe('the QSF upload limit', () => {
  it('a file over 20 MB: 413 FW_VAL_4, as every oversized upload', async () => {
    const doc = survey(1);
    (doc.SurveyEntry as Json).SurveyDescription = 'x'.repeat(20 * 1024 * 1024);
    await refused(JSON.stringify(doc), 413, 'FW_VAL_4', /larger than 20 MB/);
  });
});

describe('limits no real survey reaches', () => {
  it('50,000 questions (7 MB, under the upload limit) or 2,001: 400 FW_SUR_2 naming the limit', async () => {
    const questions = Array.from({ length: 50_000 }, (_, i) => tinyQuestion(i + 1));
    const file = JSON.stringify(qsf({ questions, blocks: [], flow: [] }));
    expect(file.length).toBeLessThan(20 * 1024 * 1024);
    await refused(file, 400, 'FW_SUR_2', /50003 survey elements .*at most 10000/);
    const over = Array.from({ length: QSF_LIMITS.questions + 1 }, (_, i) => tinyQuestion(i + 1));
    await refused(
      JSON.stringify(qsf({ questions: over, blocks: [], flow: [] })),
      400,
      'FW_SUR_2',
      /2001 questions .*at most 2000/,
    );
  });

  it('2,000 questions import, and the survey reads back', async () => {
    const res = await uploadQsf(t, org.apiToken, JSON.stringify(survey(QSF_LIMITS.questions)));
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    const got = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${res.body.result.id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body.result.questions)).toHaveLength(QSF_LIMITS.questions);
  });

  it('1,001 choices in a question, 501 blocks, a flow 21 levels deep: 400 FW_SUR_2 each', async () => {
    await refused(JSON.stringify(survey(1, 1001)), 400, 'FW_SUR_2', /1001 choices in one question/);
    const blocks = Array.from({ length: 501 }, (_, i) => block(`BL_${i + 1}`, i === 0 ? ['QID1'] : []));
    await refused(JSON.stringify(survey(1, 2, { blocks })), 400, 'FW_SUR_2', /501 blocks .*at most 500/);
    let flow: Json = blockFlow('BL_1', 'FL_deepest');
    for (let i = 0; i < 21; i++) flow = { Type: 'Branch', FlowID: `FL_b${i}`, Flow: [flow] };
    await refused(JSON.stringify(survey(1, 2, { flow: [flow] })), 400, 'FW_SUR_2', /flow levels/);
  });

  it('an element nesting 5,000 deep anywhere: 400 FW_SUR_2, never a crash', async () => {
    const doc = survey(1);
    ((doc.SurveyElements as Json[]).at(-1)?.Payload as Json).DisplayLogic = 'DEEP';
    await refused(withDeep(doc, 5000), 400, 'FW_SUR_2', /nests arrays or objects more than 64 levels/);
    const unknown = survey(1);
    (unknown.SurveyElements as Json[]).push(element('XX', 'DEEP'));
    await refused(withDeep(unknown, 5000), 400, 'FW_SUR_2', /file\.SurveyElements\[4\]\.Payload/);
  });
});

describe('text no engine stores', () => {
  it('a NUL in the survey name or a lone surrogate in a question: 400 FW_VAL_1 naming the field', async () => {
    const named = survey(1);
    (named.SurveyEntry as Json).SurveyName = 'Nul\u0000survey';
    await refused(JSON.stringify(named), 400, 'FW_VAL_1', /file\.SurveyEntry\.SurveyName holds a NUL/);
    const lone = survey(1);
    ((lone.SurveyElements as Json[]).at(-1)?.Payload as Json).QuestionText = 'Half \ud83d a face';
    await refused(
      JSON.stringify(lone),
      400,
      'FW_VAL_1',
      /file\.SurveyElements\[3\]\.Payload\.QuestionText holds an unpaired surrogate \(U\+D83D\)/,
    );
  });
});
