// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { DISTRIBUTION_JOB, distributionJob } from '../../src/modules/distributions/distribution.job.js';
import { addListContact, createDirectoryList } from '../contacts/contacts-helpers.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, testConfig } from '../helpers/test-app.js';
import {
  allPages,
  createDistribution,
  distributionBody,
  distributionWorld,
  getDistribution,
  ONE_QUESTION,
  type World,
} from './distribution-helpers.js';

let world: World;

beforeAll(async () => {
  world = await distributionWorld({ contacts: 2 });
}, 60_000);
afterAll(async () => world?.close());

const call = (method: string, url: string, body?: unknown, token = world.org.apiToken) =>
  world.t.call(token, method, url, body);

describe('the distributions API', () => {
  it('refuses SMS distributions with a clear 400', async () => {
    const sms = await call('POST', '/API/v3/distributions/sms', { surveyId: world.surveyId });
    expect(sms.status).toBe(400);
    expect(sms.body.meta.error).toMatchObject({ errorCode: 'FW_DST_1' });
    expect(sms.body.meta.error.errorMessage).toContain('no SMS transport');
    const channel = await call('POST', '/API/v3/distributions', distributionBody(world, { channel: 'sms' }));
    expect(channel.status).toBe(400);
    expect(channel.body.meta.error.errorCode).toBe('FW_DST_1');
  });

  it('waits for a future send date, and cancels a distribution not sent yet', async () => {
    const later = new Date(world.clock.now().getTime() + 3_600_000).toISOString();
    const id = await createDistribution(world, { sendDate: later });
    expect(await world.runJobs()).toBe(0);
    expect(world.sink.received).toHaveLength(0);
    expect((await getDistribution(world, id)).requestStatus).toBe('Pending');
    const cancel = await call('DELETE', `/API/v3/distributions/${id}`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.result).toBeUndefined();
    expect((await getDistribution(world, id)).requestStatus).toBe('Canceled');
    world.clock.advance(2 * 3_600_000);
    await world.runJobs();
    expect(world.sink.received).toHaveLength(0);
    const again = await call('DELETE', `/API/v3/distributions/${id}`);
    expect(again.status).toBe(409);
    expect(again.body.meta.error.errorCode).toBe('FW_DST_2');
  });

  it('sends at the send date once the clock reaches it; a sent one cannot be canceled', async () => {
    const at = new Date(world.clock.now().getTime() + 60_000).toISOString();
    const id = await createDistribution(world, { sendDate: at });
    expect(await world.runJobs()).toBe(0);
    world.clock.advance(60_000);
    expect(await world.runJobs()).toBe(1);
    expect(world.sink.received).toHaveLength(2);
    const cancel = await call('DELETE', `/API/v3/distributions/${id}`);
    expect(cancel.status).toBe(409);
    expect(cancel.body.meta.error.errorMessage).toContain('was sent');
    const byDate = await allPages(
      world,
      `/API/v3/distributions?surveyId=${world.surveyId}&sendStartDate=${encodeURIComponent(at)}`,
    );
    expect(byDate.map((d) => d.id)).toEqual([id]);
  });

  it('sends a library message, and one contact of the list alone', async () => {
    const created = await call('POST', '/API/v3/messages', {
      description: 'Invitation',
      category: 'invite',
      messages: { en: '<p>Hello ${m://FirstName}, ${l://SurveyLink}</p>', fr: '<p>Bonjour</p>' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const contact = world.contacts[1] as { id: string; email: string; firstName: string };
    const before = world.sink.received.length;
    const id = await createDistribution(world, {
      message: { libraryId: world.org.userId, messageId: created.body.result.id },
      recipients: { mailingListId: world.listId, contactId: contact.id },
    });
    await world.runJobs();
    const sent = world.sink.received.slice(before);
    expect(sent.map((m) => m.to)).toEqual([[contact.email]]);
    expect(String((await world.sink.parse(sent[0] as never)).html)).toContain(`Hello ${contact.firstName}`);
    expect((await getDistribution(world, id)).message).toMatchObject({
      libraryId: world.org.userId,
      messageId: created.body.result.id,
      messageText: null,
    });
    const sms = await call('POST', '/API/v3/messages', {
      description: 'Text',
      category: 'smsInvite',
      messages: { en: 'Hi' },
    });
    const refused = await call(
      'POST',
      '/API/v3/distributions',
      distributionBody(world, { message: { messageId: sms.body.result.id } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.meta.error.errorCode).toBe('FW_DST_1');
  });

  it('answers 404 GED_3 for an unknown distribution and for another organisation’s', async () => {
    const id = await createDistribution(world, { sendDate: '2030-01-01T00:00:00Z' });
    const unknown = await call('GET', '/API/v3/distributions/EMD_000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta.error).toEqual({
      errorCode: 'GED_3',
      errorMessage: 'Distribution EMD_000000000000000 not found.',
    });
    const other = await world.t.newOrganization();
    for (const [method, url] of [
      ['GET', `/API/v3/distributions/${id}`],
      ['DELETE', `/API/v3/distributions/${id}`],
      ['GET', `/API/v3/distributions/${id}/links`],
      ['GET', `/API/v3/distributions/${id}/history`],
    ] as const) {
      const res = await call(method, url, undefined, other.apiToken);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.meta.error.errorCode).toBe('GED_3');
    }
    const followUp = await call(
      'POST',
      `/API/v3/distributions/${id}/reminders`,
      { message: { messageText: 'x' }, sendDate: '2030-01-02T00:00:00Z' },
      other.apiToken,
    );
    expect(followUp.status).toBe(404);
    // A participant of the same organisation sees only the distributions it made.
    const participant = await createUserWithToken(world.t, world.org.apiToken);
    const notOwn = await call('GET', `/API/v3/distributions/${id}`, undefined, participant.token);
    expect(notOwn.status).toBe(404);
    expect(notOwn.body.meta.error.errorCode).toBe('GED_3');
    const list = await call(
      'GET',
      `/API/v3/distributions?surveyId=${world.surveyId}`,
      undefined,
      other.apiToken,
    );
    expect(list.status).toBe(404);
    expect(list.body.meta.error.errorCode).toBe('GSI_2');
  });

  it('answers 400 naming the field for bad bodies, and 404 for an unknown list or survey', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ sendDate: 'next tuesday' }, 400, 'sendDate'],
      [{ header: { fromEmail: 'not an address', subject: 'x' } }, 400, 'fromEmail'],
      [{ message: {} }, 400, 'message'],
      [{ message: { messageText: 'a', messageId: 'MS_000000000000000' } }, 400, 'message'],
      [{ surveyLink: { surveyId: world.surveyId, type: 'Sometimes' } }, 400, 'type'],
      [{ recipients: { mailingListId: 'CG_000000000000000' } }, 404, 'Mailing List'],
      [{ surveyLink: { surveyId: 'SV_000000000000000' } }, 404, 'Survey'],
      [{ message: { messageId: 'MS_000000000000000' } }, 404, 'MS_000000000000000'],
    ];
    for (const [override, status, named] of cases) {
      const res = await call('POST', '/API/v3/distributions', distributionBody(world, override));
      expect(res.status, JSON.stringify(override)).toBe(status);
      expect(res.body.meta.error.errorMessage).toContain(named);
    }
    const noSurvey = await call('GET', '/API/v3/distributions');
    expect(noSurvey.status).toBe(400);
    expect(noSurvey.body.meta.error.errorMessage).toContain('surveyId');
  });

  it('lists its paths in the OpenAPI document', async () => {
    const doc = (await world.t.app.inject({ method: 'GET', url: '/API/v3/openapi.json' })).json();
    for (const path of [
      '/API/v3/distributions',
      '/API/v3/distributions/{distributionId}',
      '/API/v3/distributions/{distributionId}/reminders',
      '/API/v3/distributions/{distributionId}/thankyous',
      '/API/v3/distributions/{distributionId}/links',
      '/API/v3/distributions/{distributionId}/history',
    ])
      expect(Object.keys(doc.paths)).toContain(path);
  });
});

describe('without an SMTP server', () => {
  it('writes each message as an .eml file through the BlobStore', async () => {
    const clock = manualClock('2026-04-01T09:00:00Z');
    const t = await buildTestApp({ clock });
    try {
      const org = await t.newOrganization();
      const surveyId = await importSurvey(t, org.apiToken, ONE_QUESTION);
      const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
      const contact = await addListContact(t, org.apiToken, org.directoryId, listId, { firstName: 'Grace' });
      const res = await t.call(org.apiToken, 'POST', '/API/v3/distributions', {
        message: { messageText: '<p>Hi ${m://FirstName}</p>' },
        recipients: { mailingListId: listId },
        header: { fromEmail: 'surveys@example.org', subject: 'Hello' },
        surveyLink: { surveyId },
        sendDate: clock.now().toISOString(),
      });
      expect(res.status).toBe(200);
      const id = res.body.result.id;
      const registry = new JobRegistry();
      registry.register(
        DISTRIBUTION_JOB,
        distributionJob({ db: t.database.db, clock, config: testConfig(), blobs: t.app.blobs }),
      );
      expect(await new JobWorker({ db: t.database.db, clock, registry }).runOnce()).toBe(1);
      const eml = (
        await buffer(await t.app.blobs.open(`${org.brandId}/mail/${id}/${contact.id}.eml`))
      ).toString();
      expect(eml).toContain('Subject: Hello');
      expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(eml).toMatch(/Hi Grace/);
      const read = await t.call(org.apiToken, 'GET', `/API/v3/distributions/${id}`);
      expect(read.body.result.stats.sent).toBe(1);
    } finally {
      await t.close();
    }
  });
});
