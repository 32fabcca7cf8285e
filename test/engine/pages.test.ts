import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { createIndividualLink } from '../../src/modules/engine/sessions.service.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { eventsTestApp, testWorker } from '../events/event-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { engineFixture, importSurvey, questionKeys } from './engine-helpers.js';
import { FormClient, hiddenValue } from './form-client.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

let t: TestApp;
let clock: Awaited<ReturnType<typeof eventsTestApp>>['clock'];
let org: BootstrapResult;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
const PETS = engineFixture('pets.qsf');

beforeAll(async () => {
  ({ t, clock } = await eventsTestApp());
  worker = testWorker(t);
  receiver = await startWebhookReceiver();
  org = await t.newOrganization();
  const sub = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: receiver.url,
    topics: 'surveyengine.completedResponse.*',
  });
  expect(sub.status).toBe(200);
});
afterAll(async () => {
  await receiver?.close();
  await worker?.stop();
  await t?.close();
});

const form = (surveyId: string) => `/jfe/form/${surveyId}`;
const responsesOf = (surveyId: string) =>
  t.database.db.selectFrom('responses').selectAll().where('survey_id', '=', surveyId).execute();

/** Takes the pets survey: no pet, oranges, Good/Bad, no comment. Returns the end page. */
async function takePets(client: FormClient, surveyId: string, first?: { body: string }) {
  let page = first ?? (await client.get(form(surveyId)));
  page = await client.post(form(surveyId), page.body, { QID1: '2' });
  page = await client.post(form(surveyId), page.body, { QID3: '1' });
  return client.post(form(surveyId), page.body, { QID4_1: '1', QID4_2: '2', _fw_action: 'continue' });
}

describe('pages and their errors', () => {
  it('answers 404 pages for unknown surveys and links, with no API envelope', async () => {
    for (const url of ['/jfe/form/SV_doesnotexist0000', '/jfe/form/nonsense', '/jfe/form/SV_x/l/abc']) {
      const res = await new FormClient(t).get(url);
      expect(res.status, url).toBe(404);
      expect(String(res.headers['content-type'])).toContain('text/html');
    }
  });

  it('treats a session cookie with a bad percent-encoding as no session, not a crash', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const before = await responsesOf(surveyId);
    const res = await t.app.inject({
      method: 'GET',
      url: form(surveyId),
      headers: { cookie: `fw_${surveyId}=%ff` },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(await responsesOf(surveyId)).toEqual(before);
  });

  it('refuses a page posted without the session it belongs to', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const page = await new FormClient(t).get(form(surveyId));
    const stranger = await new FormClient(t).post(form(surveyId), page.body, { QID1: '1' });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toContain('Your session could not be found');
  });

  it('shows expired and not yet open surveys as closed, and records nothing', async () => {
    const expired = await importSurvey(t, org.apiToken, PETS);
    const past = { startDate: '2020-01-01T00:00:00Z', endDate: '2021-01-01T00:00:00Z' };
    expect(
      (await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${expired}`, { expiration: past })).status,
    ).toBe(200);
    const res = await new FormClient(t).get(form(expired));
    expect(res.status).toBe(410);
    expect(res.body).toContain('This survey has closed');

    const later = await importSurvey(t, org.apiToken, PETS);
    const future = { startDate: '2099-01-01T00:00:00Z', endDate: null };
    expect(
      (await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${later}`, { expiration: future })).status,
    ).toBe(200);
    expect((await new FormClient(t).get(form(later))).status).toBe(403);
    expect(await responsesOf(expired)).toHaveLength(0);
  });

  it('serves its own stylesheet and script, and pages that load nothing from elsewhere', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const page = await new FormClient(t).get(form(surveyId));
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.body).toContain('<meta name="viewport"');
    expect(page.body).toContain('<html lang="en">');
    for (const [path, type] of [
      ['/jfe/static/fieldwork.css', 'text/css'],
      ['/jfe/static/fieldwork.js', 'text/javascript'],
    ] as const) {
      const asset = await t.app.inject({ method: 'GET', url: path });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toContain(type);
    }
  });

  it('lands a stale or repeated page on the page the session is on', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const client = new FormClient(t);
    const first = await client.get(form(surveyId));
    const second = await client.post(form(surveyId), first.body, { QID1: '1' });
    expect(second.body).toContain('id="q-QID2"');
    const again = await client.post(form(surveyId), first.body, { QID1: '2' });
    expect(hiddenValue(again.body, '_fw_page')).toBe(hiddenValue(second.body, '_fw_page'));
    const back = await client.post(form(surveyId), second.body, { _fw_action: 'back' });
    expect(back.body).toContain('id="q-QID1"');
    expect(back.body).toMatch(/value="1" checked/);
  });
});

describe('completion', () => {
  it('cuts ResponseEventContext at 50 characters for the response and the event', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const long = 'x'.repeat(60);
    const client = new FormClient(t);
    const end = await takePets(
      client,
      surveyId,
      await client.get(`${form(surveyId)}?ResponseEventContext=${long}`),
    );
    expect(end.body).toContain('Thank you for telling us about your pets.');
    const [response] = await responsesOf(surveyId);
    expect(JSON.parse(response?.values ?? '{}').ResponseEventContext).toBe('x'.repeat(50));
    await worker.deliverDue();
    await receiver.waitUntil((r) => r.some((x) => x.form.get('MSG')?.includes(response?.id ?? '-')), 10_000);
    const event = receiver.received
      .map((r) => JSON.parse(r.form.get('MSG') ?? '{}'))
      .find((m) => m.ResponseID === response?.id);
    expect(event.ResponseEventContext).toBe('x'.repeat(50));
  });

  it('ties an individual link to its contact and distribution, once', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    const scope = { organizationId: org.brandId };
    const link = await createIndividualLink(t.database.db, scope, {
      surveyId,
      contactId: 'CID_contact00000001',
      distributionId: 'EMD_distribution001',
      now: clock.now(),
    });
    const client = new FormClient(t);
    const first = await client.get(link.path);
    expect(first.status).toBe(200);
    const end = await takePets(client, surveyId, first);
    expect(end.body).toContain('Thank you for telling us about your pets.');
    const [response] = await responsesOf(surveyId);
    expect(response).toMatchObject({
      recipient_id: 'CID_contact00000001',
      distribution_id: 'EMD_distribution001',
    });

    const again = await new FormClient(t).get(link.path);
    expect(again.status).toBe(200);
    expect(again.body).toContain('You have already taken this survey');
    expect(await responsesOf(surveyId)).toHaveLength(1);

    const expired = await createIndividualLink(t.database.db, scope, {
      surveyId,
      contactId: 'CID_contact00000002',
      expiresAt: new Date(clock.now().getTime() - 1000),
      now: clock.now(),
    });
    expect((await new FormClient(t).get(expired.path)).status).toBe(410);
    expect((await new FormClient(t).get(`/jfe/form/${surveyId}/l/${'A'.repeat(40)}`)).status).toBe(404);
  });

  it('ends the survey when a full quota matches, recording nothing', async () => {
    const doc = qsf({
      blocks: [block('BL_a', ['QID1', '|', 'QID2'])],
      flow: [blockFlow('BL_a', 'FL_2')],
      questions: [
        question('QID1', { type: 'MC', selector: 'SAVR', sub: 'TX', choices: ['Cat', 'Dog'] }),
        question('QID2', { type: 'TE', selector: 'SL' }),
      ],
      quotas: [{ ID: 'QO_cats', Name: 'Cat owners', Occurrences: 1, Logic: selected('QID1', '1') }],
    });
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    const take = async (choice: string) => {
      const client = new FormClient(t);
      const first = await client.get(form(surveyId));
      const second = await client.post(form(surveyId), first.body, { QID1: choice });
      if (!second.body.includes('id="q-QID2"')) return second;
      return client.post(form(surveyId), second.body, { QID2_TEXT: 'hello' });
    };
    expect((await take('1')).body).toContain('Your response has been recorded');
    const full = await take('1');
    expect(full.body).toContain('We already have all the responses we need');
    expect((await take('2')).body).toContain('Your response has been recorded');
    const responses = await responsesOf(surveyId);
    expect(responses.map((r) => questionKeys(JSON.parse(r.values)))).toEqual([
      ['QID1', 'QID2_TEXT'],
      ['QID1', 'QID2_TEXT'],
    ]);
    const quotas = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/quotas`);
    expect(JSON.stringify(quotas.body.result)).toContain('QO_cats');
  });
});
