import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { recordCompletedResponse } from '../../src/modules/responses/record-response.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { createDirectoryList, pathOf } from './contacts-helpers.js';

let t: TestApp;
const clock = manualClock('2026-03-01T12:00:00Z');
let org: { apiToken: string; directoryId: string; brandId: string; userId: string };
let contacts: string;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  org = await t.newOrganization();
  contacts = `/API/v3/directories/${org.directoryId}/contacts`;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) => {
  const res = await t.call(org.apiToken, 'POST', contacts, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as string;
};

/** A completed response given by the contact (its recipient id), as a distribution's link records it. */
const respond = (surveyId: string, contactId: string) =>
  t.database.db.transaction().execute((trx) =>
    recordCompletedResponse(
      trx,
      { organizationId: org.brandId },
      {
        surveyId,
        answers: { QID1: 10 },
        now: clock.now(),
        recipientId: contactId,
        distributionId: 'EMD_aaaaaaaaaaaaaaa',
        distributionChannel: 'email',
      },
    ),
  );

describe('GET /v3/directories/{directoryId}/contacts/{contactId}', () => {
  it('gives the real record: dates in epoch milliseconds, mailing lists, embedded data and stats', async () => {
    const id = await create({ email: 'rec@example.com', firstName: 'Rec', embeddedData: { team: 'A' } });
    const created = Date.parse('2026-03-01T12:00:00Z');
    const read = await t.call(org.apiToken, 'GET', `${contacts}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toEqual({
      contactId: id,
      firstName: 'Rec',
      lastName: null,
      email: 'rec@example.com',
      phone: null,
      extRef: null,
      language: null,
      unsubscribed: false,
      embeddedData: { team: 'A' },
      bounced: false,
      creationDate: created,
      lastModified: created,
      mailingListMembership: {},
      stats: { responseCount: 0, lastResponseDate: null },
    });

    clock.advance(90_000);
    expect((await t.call(org.apiToken, 'PUT', `${contacts}/${id}`, { lastName: 'Ord' })).status).toBe(200);
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId, 'Panel');
    const joined = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contacts`,
      { email: 'REC@example.com' },
    );
    expect(joined.body.result.id).toBe(id);
    const surveyId = await importSmallSurvey(t, org.apiToken);
    await respond(surveyId, id);
    clock.advance(60_000);
    await respond(surveyId, id);

    const after = (await t.call(org.apiToken, 'GET', `${contacts}/${id}`)).body.result;
    expect(after.creationDate).toBe(created);
    expect(after.lastModified).toBeGreaterThanOrEqual(created + 90_000);
    expect(after.lastName).toBe('Ord');
    expect(after.mailingListMembership).toEqual({
      [listId]: {
        name: 'Panel',
        ownerId: org.userId,
        contactLookupId: joined.body.result.contactLookupId,
        unsubscribed: false,
      },
    });
    expect(after.stats).toEqual({ responseCount: 2, lastResponseDate: created + 150_000 });

    await t.call(
      org.apiToken,
      'PUT',
      `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contacts/${id}`,
      {
        unsubscribed: true,
      },
    );
    const optedOut = (await t.call(org.apiToken, 'GET', `${contacts}/${id}`)).body.result;
    expect(optedOut.mailingListMembership[listId].unsubscribed).toBe(true);
    expect(optedOut.unsubscribed).toBe(false);
  });
});

describe('GET /v3/directories/{directoryId}/contacts/{contactId}/history', () => {
  it('lists the responses the contact gave, newest first, paged', async () => {
    const id = await create({ email: 'hist@example.com' });
    const other = await create({ email: 'other@example.com' });
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const first = await respond(surveyId, id);
    clock.advance(1_000);
    await respond(surveyId, other);
    clock.advance(1_000);
    const second = await respond(surveyId, id);

    const page = await t.call(org.apiToken, 'GET', `${contacts}/${id}/history?pageSize=1`);
    expect(page.status).toBe(200);
    expect(page.body.result.elements).toEqual([
      {
        type: 'response',
        responseId: second.responseId,
        surveyId,
        distributionId: 'EMD_aaaaaaaaaaaaaaa',
        date: clock.now().toISOString().replace('.000Z', 'Z'),
        finished: true,
      },
    ]);
    const rest = await t.call(org.apiToken, 'GET', pathOf(page.body.result.nextPage));
    expect(rest.body.result.elements.map((e: { responseId: string }) => e.responseId)).toEqual([
      first.responseId,
    ]);
    expect(rest.body.result.nextPage).toBeNull();
    const typed = await t.call(org.apiToken, 'GET', `${contacts}/${id}/history?type=response`);
    expect(typed.body.result.elements).toHaveLength(2);
    const none = await t.call(
      org.apiToken,
      'GET',
      `${contacts}/${await create({ email: 'n@example.com' })}/history`,
    );
    expect(none.body.result).toEqual({ elements: [], nextPage: null });
  });

  it('answers 400 naming type for a kind it does not keep, and 404 for an unknown contact', async () => {
    const id = await create({ email: 'kind@example.com' });
    const email = await t.call(org.apiToken, 'GET', `${contacts}/${id}/history?type=email`);
    expect(email.status).toBe(400);
    expect(email.body.meta.error.errorMessage).toContain('type');
    const unknown = await t.call(org.apiToken, 'GET', `${contacts}/CID_000000000000000/history`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta.error.errorCode).toBe('FW_CON_1');
  });
});
