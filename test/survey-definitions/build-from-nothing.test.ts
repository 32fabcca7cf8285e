import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { FormClient } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { call200, defs, exportFile, mcQuestion, whenSelected } from './definitions-helpers.js';

/**
 * Issue 15: a survey built from nothing through the definitions calls (blocks, five question types,
 * display logic, embedded data, flow), published, taken through the browser pages and exported.
 */

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(() => t?.close());

const form = (surveyId: string) => `/jfe/form/${surveyId}`;

/** Builds the survey; answers its id and the ids the calls gave. */
async function buildSurvey() {
  const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);
  const created = await call('POST', '/API/v3/survey-definitions', {
    SurveyName: 'Built from nothing',
    Language: 'EN',
    ProjectCategory: 'CORE',
  });
  const { SurveyID: id, DefaultBlockID: firstBlock } = created.result;
  expect(id).toMatch(/^SV_[A-Za-z0-9]{15}$/);
  expect(firstBlock).toMatch(/^BL_[A-Za-z0-9]{15}$/);

  await call('POST', defs(id, '/embeddeddatafields'), {
    embeddedDataFields: [{ key: 'source' }, { key: 'wave', type: 'number', value: '2' }],
  });
  const q1 = await call('POST', defs(id, '/questions'), mcQuestion('Do you have a pet?', ['Yes', 'No']));
  const q2 = await call(
    'POST',
    defs(id, `/questions?blockId=${firstBlock}`),
    mcQuestion('Which pets?', ['Dog', 'Cat', 'Fish'], {
      Selector: 'MAVR',
      DisplayLogic: whenSelected('QID1', '1'),
    }),
  );
  const q3 = await call('POST', defs(id, '/questions'), {
    QuestionText: 'Your first name',
    QuestionType: 'TE',
    Selector: 'SL',
    Configuration: { QuestionDescriptionOption: 'UseText' },
  });
  expect([q1, q2, q3].map((q) => q.result.QuestionID)).toEqual(['QID1', 'QID2', 'QID3']);
  // A page break after the first question: its answer decides the display logic of the second.
  await call('PUT', defs(id, `/blocks/${firstBlock}`), {
    Description: 'About you',
    BlockElements: [
      { Type: 'Question', QuestionID: 'QID1' },
      { Type: 'Page Break' },
      { Type: 'Question', QuestionID: 'QID2' },
      { Type: 'Question', QuestionID: 'QID3' },
    ],
  });

  const second = (await call('POST', defs(id, '/blocks'), { Type: 'Standard', Description: 'Pet owners' }))
    .result;
  expect(second.FlowID).toMatch(/^FL_\d+$/);
  const inSecond = `/questions?blockId=${second.BlockID}`;
  await call('POST', defs(id, inSecond), {
    QuestionText: 'Thank you, pet owner.',
    QuestionType: 'DB',
    Selector: 'TB',
  });
  await call('POST', defs(id, inSecond), {
    QuestionText: 'Rate your vet',
    QuestionType: 'Matrix',
    Selector: 'Likert',
    SubSelector: 'SingleAnswer',
    Choices: { 1: { Display: 'Price' }, 2: { Display: 'Care' } },
    ChoiceOrder: ['1', '2'],
    Answers: { 1: { Display: 'Poor' }, 2: { Display: 'Fair' }, 3: { Display: 'Good' } },
    AnswerOrder: ['1', '2', '3'],
  });
  await call('POST', defs(id, inSecond), {
    QuestionText: 'How happy is your pet?',
    QuestionType: 'Slider',
    Selector: 'HSLIDER',
    Choices: { 1: { Display: 'Happiness' } },
    ChoiceOrder: ['1'],
    Configuration: { CSSliderMin: 0, CSSliderMax: 100 },
  });

  // The flow: embedded data, the first block, then the second block only for pet owners.
  const flow = (await call('GET', defs(id, '/flow'))).result;
  const [embedded, firstNode, secondNode] = flow.Flow;
  expect(embedded.Type).toBe('EmbeddedData');
  await call('PUT', defs(id, '/flow'), {
    ...flow,
    Flow: [
      embedded,
      firstNode,
      {
        Type: 'Branch',
        Description: 'Pet owners',
        BranchLogic: whenSelected('QID1', '1'),
        Flow: [secondNode],
      },
    ],
  });
  return { id, firstBlock, secondBlock: second.BlockID as string };
}

describe('a survey built from nothing through the definitions calls', () => {
  let surveyId: string;
  beforeAll(async () => {
    surveyId = (await buildSurvey()).id;
  });

  it('reads back as JSON with every part the calls made, and nothing live before publishing', async () => {
    const definition = (await call200(t, org.apiToken, 'GET', defs(surveyId))).result;
    expect(definition.SurveyName).toBe('Built from nothing');
    expect(definition.QuestionCount).toBe('6');
    expect(Object.keys(definition.Questions).sort()).toEqual([
      'QID1',
      'QID2',
      'QID3',
      'QID4',
      'QID5',
      'QID6',
    ]);
    expect(definition.Questions.QID2.DisplayLogic.Type).toBe('BooleanExpression');
    const branch = definition.SurveyFlow.Flow[2];
    expect(branch.Type).toBe('Branch');
    expect(branch.Flow[0].Type).toBe('Standard');
    expect(definition.SurveyFlow.Properties.Count).toBeGreaterThanOrEqual(4);
    expect(definition.SurveyFlow.Flow[0].EmbeddedData.map((f: { Field: string }) => f.Field)).toEqual([
      'source',
      'wave',
    ]);
    // The live survey (what the engine and exports read) is still the empty one.
    const live = (await call200(t, org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).result;
    expect(Object.keys(live.questions)).toEqual([]);
  });

  it('is published, activated, taken through the browser pages and exported with the answers given', async () => {
    const published = await call200(t, org.apiToken, 'POST', defs(surveyId, '/versions'), {
      Description: 'First version',
      Published: true,
    });
    expect(published.result.metadata).toMatchObject({
      versionNumber: 1,
      published: true,
      wasPublished: true,
    });
    await call200(t, org.apiToken, 'PUT', defs(surveyId, '/metadata'), { SurveyStatus: 'Active' });
    const live = (await call200(t, org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).result;
    expect(live.isActive).toBe(true);
    expect(Object.keys(live.questions)).toHaveLength(6);

    const client = new FormClient(t);
    let page = await client.get(`${form(surveyId)}?source=newsletter`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Do you have a pet?');
    expect(page.body).not.toContain('Which pets?');
    page = await client.post(form(surveyId), page.body, { QID1: '1' });
    expect(page.body).toContain('Which pets?');
    page = await client.post(form(surveyId), page.body, { QID2: ['1', '2'], QID3_TEXT: 'Ada' });
    expect(page.body).toContain('Rate your vet');
    expect(page.body).toContain('Thank you, pet owner.');
    page = await client.post(form(surveyId), page.body, { QID5_1: '3', QID5_2: '2', QID6_1: '70' });
    expect(page.body, page.body).toContain('Your response has been recorded');

    const json = JSON.parse(await exportFile(t, org.apiToken, surveyId, 'json'));
    expect(json.responses).toHaveLength(1);
    expect(json.responses[0].values).toMatchObject({
      QID1: 1,
      QID2_1: 1,
      QID2_2: 1,
      QID3_TEXT: 'Ada',
      QID5_1: 3,
      QID5_2: 2,
      QID6_1: 70,
      source: 'newsletter',
      wave: '2',
    });
    expect(json.responses[0].values.QID2_3).toBeUndefined();
    expect(json.responses[0].labels).toMatchObject({ QID1: 'Yes', QID5_1: 'Good' });
  });

  it('takes the other branch: without a pet, the second block is not shown', async () => {
    const client = new FormClient(t);
    let page = await client.get(form(surveyId));
    page = await client.post(form(surveyId), page.body, { QID1: '2' });
    expect(page.body).not.toContain('Which pets?');
    page = await client.post(form(surveyId), page.body, { QID3_TEXT: 'Grace' });
    expect(page.body).toContain('Your response has been recorded');
  });
});
