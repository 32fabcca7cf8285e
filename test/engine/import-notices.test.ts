// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written as QSF files write it
/**
 * Issue 13 item 7: the import answer and `GET /v3/surveys/{id}` name every element the engine does not run
 * as written, by element id and what happens instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t?.close();
});

const DOC = qsf({
  options: { RecaptchaV3: 'true', PasswordProtection: 'Yes', EOSRedirectURL: 'https://x.test/?a=${x://y}' },
  blocks: [block('BL_1', ['QID1', 'QID2', 'QID3'])],
  questions: [
    question('QID1', {
      type: 'MC',
      selector: 'SAVR',
      choices: ['A', 'B ${foo://bar}'],
      extra: { QuestionJS: 'Qualtrics.SurveyEngine.addOnload(function(){});' },
    }),
    question('QID2', {
      type: 'TE',
      selector: 'SL',
      extra: { DisplayLogic: { ...selected('QID1', '1'), inPage: true } },
    }),
    question('QID3', { type: 'HeatMap', selector: 'Static' }),
  ],
  flow: [
    { Type: 'Authenticator', FlowID: 'FL_2', Flow: [blockFlow('BL_1', 'FL_3')] },
    { Type: 'WebService', FlowID: 'FL_4', URL: 'https://api.test' },
    {
      Type: 'EmbeddedData',
      FlowID: 'FL_5',
      EmbeddedData: [{ Field: 'x', Type: 'Custom', Value: '${gr://SC_1/Score}' }],
    },
    { Type: 'BlockRandomizer', FlowID: 'FL_6', SubSet: 1, EvenPresentation: true, Flow: [] },
  ],
});

describe('import notices', () => {
  it('lists every element not run as written, at import and on every read', async () => {
    const upload = await uploadQsf(t, org.apiToken, JSON.stringify(DOC));
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const notice = upload.body.meta.notice as string;
    for (const expected of [
      'Imported questions the survey engine cannot run: QID3 (HeatMap/Static).',
      'QID1: its JavaScript is not run; the question is shown without it.',
      'QID1: piped text ${foo://bar} is not supported and shows empty.',
      'FL_2 (Authenticator): not run; respondents are not authenticated; the flow inside it runs for everyone.',
      'FL_4 (WebService): not run; the web service is not called; its fields stay empty.',
      'FL_5: piped text ${gr://SC_1/Score} is not supported and shows empty.',
      'Survey options: piped text ${x://y} is not supported and shows empty.',
      'Survey options: the survey password is not asked.',
      'Survey options: no bot detection (reCAPTCHA) is run.',
    ])
      expect(notice).toContain(expected);
    // "Evenly present" runs as written (even-presentation.ts): nothing to say.
    expect(notice).not.toContain('FL_6');
    const read = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${upload.body.result.id}`);
    expect(read.status).toBe(200);
    expect(read.body.meta.notice).toBe(notice);
  });
});
