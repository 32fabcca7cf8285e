import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { call200, defs, mcQuestion } from './definitions-helpers.js';

/** Issue 15: the definitions calls one by one: what they answer, refuse and say. */

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);

async function newSurvey(name = 'Definitions API') {
  const { result } = await call('POST', '/API/v3/survey-definitions', { SurveyName: name, Language: 'de' });
  return result as { SurveyID: string; DefaultBlockID: string };
}

async function refused(method: string, url: string, body: unknown, status: number, code: string) {
  const res = await t.call(org.apiToken, method, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.meta.error.errorCode).toBe(code);
  return res.body.meta.error.errorMessage as string;
}

describe('an empty survey', () => {
  it('has its default block in the flow, options, metadata, and is not active', async () => {
    const { SurveyID: id, DefaultBlockID: block } = await newSurvey('Empty one');
    const definition = (await call('GET', defs(id))).result;
    expect(definition).toMatchObject({ SurveyID: id, SurveyName: 'Empty one', SurveyStatus: 'Inactive' });
    expect(definition.BrandBaseURL).toMatch(/^http/);
    expect(Object.keys(definition.Blocks)).toEqual([block]);
    expect(definition.SurveyFlow.Flow).toEqual([{ Type: 'Block', ID: block, FlowID: 'FL_2' }]);
    expect((await call('GET', defs(id, '/options'))).result.SurveyLanguage).toBe('DE');
    const metadata = (await call('GET', defs(id, '/metadata'))).result;
    expect(metadata).toMatchObject({
      SurveyID: id,
      SurveyLanguage: 'DE',
      SurveyStatus: 'Inactive',
      DivisionID: null,
    });
    expect(metadata.SurveyCreationDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await call('GET', `/API/v3/surveys/${id}`)).result.isActive).toBe(false);
  });

  it('refuses a missing name and another project category', async () => {
    await refused('POST', '/API/v3/survey-definitions', {}, 400, 'FW_VAL_1');
    await refused(
      'POST',
      '/API/v3/survey-definitions',
      { SurveyName: 'x', ProjectCategory: 'XM' },
      400,
      'FW_VAL_1',
    );
  });
});

describe('questions', () => {
  it('are listed, read, replaced and deleted; a missing one is 404 FW_DEF_1', async () => {
    const { SurveyID: id } = await newSurvey();
    await call('POST', defs(id, '/questions'), mcQuestion('First', ['A', 'B'], { DataExportTag: 'first' }));
    await call('POST', defs(id, '/questions'), mcQuestion('Second', ['A', 'B']));
    const list = (await call('GET', defs(id, '/questions'))).result.elements;
    expect(
      list.map((q: { QuestionID: string; DataExportTag: string }) => [q.QuestionID, q.DataExportTag]),
    ).toEqual([
      ['QID1', 'first'],
      ['QID2', 'Q2'],
    ]);
    await call('PUT', defs(id, '/questions/QID2'), {
      QuestionText: 'Second, again',
      QuestionType: 'TE',
      Selector: 'ML',
    });
    const second = (await call('GET', defs(id, '/questions/QID2'))).result;
    expect(second).toMatchObject({ QuestionText: 'Second, again', QuestionType: 'TE', DataExportTag: 'Q2' });
    await call('DELETE', defs(id, '/questions/QID1'));
    expect((await call('GET', defs(id, '/blocks'))).result.elements[0].BlockElements).toEqual([
      { Type: 'Question', QuestionID: 'QID2' },
    ]);
    await refused('GET', defs(id, '/questions/QID1'), undefined, 404, 'FW_DEF_1');
    await refused('PUT', defs(id, '/questions/QID9'), mcQuestion('x', ['a']), 404, 'FW_DEF_1');
    await refused('DELETE', defs(id, '/questions/QID1'), undefined, 404, 'FW_DEF_1');
  });

  it('refuses a question without its type, and an unknown block; notes what the engine cannot run', async () => {
    const { SurveyID: id } = await newSurvey();
    const message = await refused(
      'POST',
      defs(id, '/questions'),
      { QuestionText: 'x', Selector: 'SAVR' },
      400,
      'FW_VAL_1',
    );
    expect(message).toContain('QuestionType');
    await refused('POST', defs(id, '/questions?blockId=BL_nothere'), mcQuestion('x', ['a']), 400, 'FW_VAL_1');
    const heat = await call('POST', defs(id, '/questions'), {
      QuestionText: 'Click the picture',
      QuestionType: 'HeatMap',
      Selector: 'HeatMap',
    });
    expect(heat.meta.notice).toContain('QID1 (HeatMap/HeatMap)');
  });

  it('refuses a question past the import limits, as an imported file is', async () => {
    const { SurveyID: id } = await newSurvey();
    const choices = Array.from({ length: 1001 }, (_, i) => `Choice ${i + 1}`);
    const message = await refused(
      'POST',
      defs(id, '/questions'),
      mcQuestion('Many', choices),
      400,
      'FW_SUR_2',
    );
    expect(message).toContain('1001 choices');
    expect((await call('GET', defs(id, '/questions'))).result.elements).toEqual([]);
  });
});

describe('blocks and the flow', () => {
  it('a new block joins the flow; its elements move questions; deleting it takes its questions and flow entry', async () => {
    const { SurveyID: id, DefaultBlockID: first } = await newSurvey();
    await call('POST', defs(id, '/questions'), mcQuestion('One', ['a']));
    await call('POST', defs(id, '/questions'), mcQuestion('Two', ['a']));
    const { BlockID: second, FlowID } = (await call('POST', defs(id, '/blocks'), { Description: 'Second' }))
      .result;
    expect((await call('GET', defs(id, '/flow'))).result.Flow.at(-1)).toEqual({
      Type: 'Standard',
      ID: second,
      FlowID,
      Autofill: [],
    });
    await call('PUT', defs(id, `/blocks/${second}`), {
      BlockElements: [{ Type: 'Question', QuestionID: 'QID2' }],
    });
    expect((await call('GET', defs(id, `/blocks/${first}`))).result.BlockElements).toEqual([
      { Type: 'Question', QuestionID: 'QID1' },
    ]);
    expect((await call('GET', defs(id, `/blocks/${second}`))).result).toMatchObject({
      Description: 'Second',
      Type: 'Standard',
    });

    await call('DELETE', defs(id, `/blocks/${second}`));
    expect(Object.keys((await call('GET', defs(id))).result.Questions)).toEqual(['QID1']);
    expect((await call('GET', defs(id, '/flow'))).result.Flow.map((n: { ID: string }) => n.ID)).toEqual([
      first,
    ]);
    await refused('GET', defs(id, `/blocks/${second}`), undefined, 404, 'FW_DEF_2');
    await refused('DELETE', defs(id, `/blocks/${first}`), undefined, 400, 'FW_VAL_1');
    const body = { BlockElements: [{ Type: 'Question', QuestionID: 'QID7' }] };
    expect(await refused('PUT', defs(id, `/blocks/${first}`), body, 400, 'FW_VAL_1')).toContain('QID7');
  });

  it('a flow element is replaced by id (object) or given children (array); unknown blocks are left out with a notice', async () => {
    const { SurveyID: id, DefaultBlockID: block } = await newSurvey();
    const put = await call('PUT', defs(id, '/flow'), {
      Type: 'Root',
      FlowID: 'FL_1',
      Flow: [
        { Type: 'Group', Description: 'Group', Flow: [] },
        { Type: 'Block', ID: 'BL_nosuchblock0000' },
      ],
    });
    expect(put.meta.notice).toContain('BL_nosuchblock0000');
    const flow = (await call('GET', defs(id, '/flow'))).result;
    expect(flow.Flow).toHaveLength(1);
    const group = flow.Flow[0].FlowID;
    expect(group).toMatch(/^FL_\d+$/);
    await call('PUT', defs(id, `/flow/${group}`), [{ Type: 'Block', ID: block }]);
    let after = (await call('GET', defs(id, '/flow'))).result;
    expect(after.Flow[0].Flow[0]).toMatchObject({ Type: 'Block', ID: block });
    expect(after.Properties.Count).toBeGreaterThanOrEqual(Number(after.Flow[0].Flow[0].FlowID.slice(3)));
    await call('PUT', defs(id, `/flow/${group}`), { Type: 'EndSurvey' });
    after = (await call('GET', defs(id, '/flow'))).result;
    expect(after.Flow[0]).toEqual({ Type: 'EndSurvey', FlowID: group });
    await refused('PUT', defs(id, '/flow/FL_999'), { Type: 'EndSurvey' }, 404, 'FW_DEF_3');
  });

  it('embedded data fields are declared once, at the start of the flow', async () => {
    const { SurveyID: id } = await newSurvey();
    await call('POST', defs(id, '/embeddeddatafields'), { embeddedDataFields: [{ key: 'panel' }] });
    await call('POST', defs(id, '/embeddeddatafields'), {
      embeddedDataFields: [
        { key: 'panel', value: 'B' },
        { key: 'age', type: 'number' },
      ],
    });
    const [node] = (await call('GET', defs(id, '/flow'))).result.Flow;
    expect(node.Type).toBe('EmbeddedData');
    expect(node.EmbeddedData).toMatchObject([
      { Field: 'panel', Type: 'Custom', Value: 'B', VariableType: 'String' },
      { Field: 'age', Type: 'Recipient', VariableType: 'Number' },
    ]);
  });
});

describe('options and metadata', () => {
  it('options are replaced; name, status and dates change the survey at once; the description with the definition', async () => {
    const { SurveyID: id } = await newSurvey();
    await call('PUT', defs(id, '/options'), { BackButton: 'true', ProgressBarDisplay: 'Text' });
    expect((await call('GET', defs(id, '/options'))).result).toEqual({
      BackButton: 'true',
      ProgressBarDisplay: 'Text',
    });
    await call('PUT', defs(id, '/metadata'), {
      SurveyName: 'Renamed',
      SurveyDescription: 'About pets',
      SurveyStatus: 'Active',
      SurveyStartDate: '2030-01-01 08:00:00',
      SurveyExpirationDate: '2030-02-01T00:00:00Z',
    });
    const metadata = (await call('GET', defs(id, '/metadata'))).result;
    expect(metadata).toMatchObject({
      SurveyName: 'Renamed',
      SurveyDescription: 'About pets',
      SurveyStatus: 'Active',
      SurveyStartDate: '2030-01-01 08:00:00',
      SurveyExpirationDate: '2030-02-01 00:00:00',
    });
    const survey = (await call('GET', `/API/v3/surveys/${id}`)).result;
    expect(survey).toMatchObject({ name: 'Renamed', isActive: true });
    expect(survey.expiration).toEqual({ startDate: '2030-01-01T08:00:00Z', endDate: '2030-02-01T00:00:00Z' });
    await refused('PUT', defs(id, '/metadata'), { SurveyStartDate: 'soon' }, 400, 'FW_VAL_1');
    await refused('PUT', defs(id, '/metadata'), { SurveyStatus: 'Paused' }, 400, 'FW_VAL_1');
  });
});

describe('who may use the definitions calls', () => {
  it('another organisation and a user the survey is not shared with get 404; a share without the flag 403', async () => {
    const { SurveyID: id } = await newSurvey('Private');
    const other = await t.newOrganization();
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['GET', '/questions', undefined],
      ['POST', '/questions', mcQuestion('x', ['a'])],
      ['PUT', '/options', {}],
      ['GET', '/versions', undefined],
      ['POST', '/versions', { Description: 'no' }],
    ] as const) {
      const res = await t.call(other.apiToken, method, defs(id, path), body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.meta.error.errorCode).toBe('GSI_2');
    }
    const user = await call('POST', '/API/v3/users', {
      username: `writer@${org.brandId}`,
      firstName: 'W',
      lastName: 'R',
      userType: 'UT_PARTICIPANT',
      email: `writer@${org.brandId}.example`,
    });
    const token = (await call('POST', `/API/v3/users/${user.result.id}/apitoken`)).result.apiToken;
    const res = await t.call(token, 'PUT', defs(id, '/options'), {});
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('GSI_2');
    // Shared to read only: it reads, and a change is 403 naming the permission it needs (issue 15 part 5).
    await call('POST', `/API/v3/surveys/${id}/permissions/collaborations`, {
      recipientId: user.result.id,
      permissions: { surveyDefinitionManipulation: { editQuestions: true } },
    });
    expect((await t.call(token, 'GET', defs(id, '/options'))).status).toBe(200);
    const refused = await t.call(token, 'PUT', defs(id, '/options'), {});
    expect(refused.status).toBe(403);
    expect(refused.body.meta.error.errorMessage).toContain('surveyDefinitionManipulation.setSurveyOptions');
    expect((await call('GET', defs(id, '/options'))).result.BackButton).toBe('false');
  });
});
