import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { multipartImage } from '../graphics/graphics-helpers.js';
import { png } from '../graphics/images.js';
import { appNotingReads, readsOf, type TableRead } from '../helpers/table-reads.js';
import type { TestApp } from '../helpers/test-app.js';
import { call200, defs, mcQuestion } from '../survey-definitions/definitions-helpers.js';
import { importSurvey } from './engine-helpers.js';
import { FormClient } from './form-client.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

/**
 * Decision 0012: which graphics a question's texts name (Qualtrics graphic URLs of an imported survey) is
 * known per compiled version, so a page reads the organisation's graphics only when its questions name
 * some, and a session that runs an older published version (issue 15) gets that version's graphics.
 * The app's database notes the table of every select, to count the graphics reads.
 */
let t: TestApp;
let close: () => Promise<void>;
let org: BootstrapResult;
let reads: TableRead[];
const graphicsReads = () => readsOf(reads, 'graphics');

beforeAll(async () => {
  ({ t, reads, close } = await appNotingReads());
  org = await t.newOrganization();
});
afterAll(() => close?.());

const call = (method: string, url: string, body?: unknown) => call200(t, org.apiToken, method, url, body);
const form = (surveyId: string) => `/jfe/form/${surveyId}`;

async function uploadGraphic(): Promise<string> {
  const { body, headers } = multipartImage(png([0, 128, 0, 255]), { filename: 'chart.png' });
  const res = await t.call(org.apiToken, 'POST', '/API/v3/graphics', body, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id;
}

const qualtricsImage = (id: string, alt: string) =>
  `<p>Look:</p><img src="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${id}" alt="${alt}">`;

/** The `src` of the page's image of that text alternative, or undefined when the page has none. */
const imageSrc = (body: string, alt: string) => new RegExp(`<img src="([^"]*)" alt="${alt}"`).exec(body)?.[1];

describe('graphics named by Qualtrics URLs on the survey pages', () => {
  it('are read only for a page whose questions name one, and of the version the session runs', async () => {
    const [first, second] = [await uploadGraphic(), await uploadGraphic()];
    const created = await call('POST', '/API/v3/survey-definitions', { SurveyName: 'Charts' });
    const { SurveyID: id, DefaultBlockID: block } = created.result;
    await call('POST', defs(id, '/questions'), mcQuestion('<b>Ready?</b>', ['Yes', 'No']));
    await call('POST', defs(id, '/questions'), mcQuestion(qualtricsImage(first, 'First chart'), ['A', 'B']));
    await call('PUT', defs(id, `/blocks/${block}`), {
      BlockElements: [
        { Type: 'Question', QuestionID: 'QID1' },
        { Type: 'Page Break' },
        { Type: 'Question', QuestionID: 'QID2' },
      ],
    });
    await call('POST', defs(id, '/versions'), { Description: 'v1' });
    await call('PUT', `/API/v3/surveys/${id}`, { isActive: true });

    // The first page names no graphic: no graphics read.
    const before = new FormClient(t);
    let reads = graphicsReads();
    let old = await before.get(form(id));
    expect(old.body).toContain('<b>Ready?</b>');
    expect(graphicsReads()).toBe(reads);

    // Version 2 shows the second chart instead; a new session sees it.
    await call(
      'PUT',
      defs(id, '/questions/QID2'),
      mcQuestion(qualtricsImage(second, 'Second chart'), ['A', 'B']),
    );
    await call('POST', defs(id, '/versions'), { Description: 'v2' });
    const after = new FormClient(t);
    let fresh = await after.get(form(id));
    reads = graphicsReads();
    fresh = await after.post(form(id), fresh.body, { QID1: '1' });
    expect(imageSrc(fresh.body, 'Second chart')).toMatch(new RegExp(`/graphics/${second}$`));
    expect(graphicsReads()).toBe(reads + 1);

    // The session started on version 1 shows version 1's chart, served here.
    old = await before.post(form(id), old.body, { QID1: '1' });
    expect(old.status).toBe(200);
    expect(imageSrc(old.body, 'First chart')).toMatch(new RegExp(`/graphics/${first}$`));
    expect(old.body).not.toContain('Second chart');
  });

  it("are read for a heat map's image named by its graphic id", async () => {
    const graphic = await uploadGraphic();
    const definition = qsf({
      blocks: [block('BL_graphics0000001', ['QID1'])],
      flow: [blockFlow('BL_graphics0000001', 'FL_2')],
      questions: [
        question('QID1', {
          type: 'HeatMap',
          selector: 'Image',
          text: 'Where would you go first?',
          choices: ['X,Y'],
          extra: {
            GraphicID: graphic,
            GraphicsDescription: 'The shop floor',
            Clicks: 1,
            Regions: [{ Description: 'Entrance', X: 0, Y: 0, Width: 1, Height: 1 }],
          },
        }),
      ],
    });
    const id = await importSurvey(t, org.apiToken, JSON.stringify(definition));
    const page = await new FormClient(t).get(form(id));
    expect(page.status).toBe(200);
    expect(imageSrc(page.body, 'The shop floor')).toMatch(new RegExp(`/graphics/${graphic}$`));
  });
});
