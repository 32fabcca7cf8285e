/**
 * Issue 14: an imported survey's Qualtrics graphics. The import (and every read of the survey) names the
 * images its texts name that the organisation has no graphic of; uploaded under that id (`graphicId`),
 * the page shows the image from here and the notice no longer names it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/http/ids.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { upload } from '../graphics/graphics-helpers.js';
import { png } from '../graphics/images.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { FormClient } from './form-client.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let org: BootstrapResult;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t?.close();
});

const [chartA, chartB, logo] = [newId('IM'), newId('IM'), newId('IM')];
const qualtricsUrl = (id: string) => `https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${id}`;
const DOC = JSON.stringify(
  qsf({
    blocks: [block('BL_images00000001', ['QID1'])],
    flow: [blockFlow('BL_images00000001', 'FL_2')],
    questions: [
      question('QID1', {
        type: 'MC',
        selector: 'SAVR',
        text: `<p>Which chart?</p><img src="${qualtricsUrl(chartA)}" alt="Chart A"><img src="${qualtricsUrl(logo)}" alt="Logo">`,
        choices: [`<img src="${qualtricsUrl(chartB)}" alt="Chart B"> Plan B`, 'Neither'],
      }),
    ],
  }),
);

const missing = (ids: string[]) =>
  ids.length === 1
    ? `1 image is not in this organisation's graphics: ${ids[0]} (upload it with POST /v3/graphics and graphicId).`
    : `${ids.length} images are not in this organisation's graphics: ${ids.join(', ')} (upload them with POST /v3/graphics and graphicId).`;

async function importDoc(token: string): Promise<{ id: string; notice: string | undefined }> {
  const res = await uploadQsf(t, token, DOC);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.result.id, notice: res.body.meta.notice };
}

async function readNotice(surveyId: string): Promise<string | undefined> {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
  expect(res.status).toBe(200);
  return res.body.meta.notice;
}

/** The `src` of the page's image of that text alternative, or undefined when the page has none. */
const imageSrc = (body: string, alt: string) => new RegExp(`<img src="([^"]*)" alt="${alt}"`).exec(body)?.[1];

describe('Qualtrics graphics of an imported survey', () => {
  it('are named by the import until uploaded under their id, then shown from here', async () => {
    // The logo was uploaded before the import, under its Qualtrics id.
    expect((await upload(t, org.apiToken, png(), { fields: { graphicId: logo } })).status).toBe(200);

    const first = await importDoc(org.apiToken);
    expect(first.notice).toContain(missing([chartA, chartB]));
    expect(first.notice).not.toContain(logo);
    expect(await readNotice(first.id)).toBe(first.notice);

    const image = png([0, 128, 0, 255]);
    const uploaded = await upload(t, org.apiToken, image, { fields: { graphicId: chartA } });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.result.id).toBe(chartA);

    // Every read says what is left; a re-import too.
    expect(await readNotice(first.id)).toContain(missing([chartB]));
    const again = await importDoc(org.apiToken);
    expect(again.notice).toContain(missing([chartB]));
    expect(again.notice).not.toContain(chartA);

    // The page shows chart A and the logo from here; chart B, not uploaded, stays a link to Qualtrics.
    expect(
      (await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${again.id}`, { isActive: true })).status,
    ).toBe(200);
    const page = await new FormClient(t).get(`/jfe/form/${again.id}`);
    expect(page.status).toBe(200);
    const src = imageSrc(page.body, 'Chart A');
    expect(src).toMatch(new RegExp(`/graphics/${chartA}$`));
    expect(imageSrc(page.body, 'Logo')).toMatch(new RegExp(`/graphics/${logo}$`));
    expect(imageSrc(page.body, 'Chart B')).toBeUndefined();
    expect(page.body).toContain(qualtricsUrl(chartB).replaceAll('&', '&amp;'));
    const served = await t.app.inject({ method: 'GET', url: new URL(src as string, 'http://x').pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(image)).toBe(true);

    // Once all are here, the import says nothing of images.
    expect((await upload(t, org.apiToken, png(), { fields: { graphicId: chartB } })).status).toBe(200);
    expect((await importDoc(org.apiToken)).notice ?? '').not.toContain('graphics');
  });

  it("names every image to another organisation: another's graphics are not its own", async () => {
    const other = await t.newOrganization();
    expect((await importDoc(other.apiToken)).notice).toContain(missing([chartA, logo, chartB]));
  });
});
