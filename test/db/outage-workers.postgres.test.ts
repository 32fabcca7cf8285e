import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { completedResponseTopic } from '../../src/events/topics.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { contactImportJob } from '../../src/modules/contacts/contact-import.job.js';
import { CONTACT_IMPORT_JOB } from '../../src/modules/contacts/contact-imports.service.js';
import type { Worker } from '../../src/workers.js';
import { createDirectoryList, multipartFile, waitForImport } from '../contacts/contacts-helpers.js';
import { completedPayload, emit, SURVEY_ID } from '../events/event-fixtures.js';
import { testConfig } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { type Captured, errOf, eventually, type OutageApp, startOutageApp } from './outage-fixtures.js';

/**
 * Issue 19, defect 1, the background half: the job worker and the delivery worker meet a stopped
 * PostgreSQL, keep polling, and do the work left pending once the server is back, without a restart.
 */
let o: OutageApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  o = await startOutageApp();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await o?.close();
});

const workerLog: Captured[] = [];

it('keeps both workers running through an outage: a pending import and delivery complete afterwards', async () => {
  const { importUrl, subscriptionId } = await pendingWork();
  const workers: Worker[] = [];
  try {
    await o.cluster.stop();
    try {
      workers.push(...startWorkers());
      // Both loops met the outage (a failed claim each) and keep polling.
      await eventually(
        () => ['jobs', 'deliveries'].every((w) => workerLog.some((entry) => entry.message.startsWith(w))),
        'both workers report a failed claim',
      );
      expect(workerLog.every((entry) => isDatabaseUnavailable(entry.err))).toBe(true);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await o.cluster.start();
    }
    const done = await waitForImport(o.t, o.org.apiToken, importUrl, 15_000);
    expect(done.body.result).toMatchObject({
      status: 'complete',
      contacts: { count: { added: 2, failed: 0 } },
    });
    await receiver.waitFor(1, 15_000);
    await eventually(async () => (await deliveries(subscriptionId))[0]?.status === 'delivered', 'delivered');
    expect(await deliveries(subscriptionId)).toHaveLength(1);
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }
});

/** A contact import and an event delivery, both left pending: no worker runs yet. */
async function pendingWork() {
  const listId = await createDirectoryList(o.t, o.org.apiToken, o.org.directoryId);
  const base = `/API/v3/mailinglists/${listId}/contactimports`;
  const csv = 'Email,First Name\na@example.com,A\nb@example.com,B\n';
  const upload = multipartFile('contacts.csv', csv, 'text/csv');
  const started = await o.t.call(o.org.apiToken, 'POST', base, upload.body, upload.headers);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const subscribed = await o.t.call(o.org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: receiver.url,
    topics: 'surveyengine.completedResponse.*',
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  await emit(o.t, o.org.brandId, completedResponseTopic(SURVEY_ID), completedPayload());
  return {
    importUrl: `${base}/${started.body.result.id}`,
    subscriptionId: subscribed.body.result.id as string,
  };
}

/** The two background loops as app.ts builds them, their failures captured. */
function startWorkers(): Worker[] {
  const deps = { db: o.database.db, clock: systemClock, config: testConfig({ allowPrivateTargets: true }) };
  const registry = new JobRegistry();
  registry.register(CONTACT_IMPORT_JOB, contactImportJob(deps));
  const jobs = new JobWorker({
    ...deps,
    registry,
    pollMs: 100,
    log: (message, err) => workerLog.push({ message: `jobs: ${message}`, err }),
  });
  const delivery = new DeliveryWorker(deps, {
    pollMs: 100,
    log: {
      error: (details, message) => workerLog.push({ message: `deliveries: ${message}`, err: errOf(details) }),
    },
  });
  for (const worker of [jobs, delivery]) worker.start();
  return [jobs, delivery];
}

async function deliveries(subscriptionId: string): Promise<{ status: string }[]> {
  const res = await o.t.call(
    o.org.apiToken,
    'GET',
    `/API/v3/eventsubscriptions/${subscriptionId}/deliveries`,
  );
  expect(res.status).toBe(200);
  return res.body.result.elements;
}
