import { createDecipheriv, createHmac } from 'node:crypto';
import { manualClock } from '../../src/clock.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/events/delivery-worker.js';
import { recordEvent } from '../../src/events/record-event.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';

export const SURVEY_ID = 'SV_abcdefghij12345';
export const completedPayload = (n = 1) => ({
  Status: 'Complete',
  SurveyID: SURVEY_ID,
  ResponseID: `R_response${String(n).padStart(7, '0')}`,
  CompletedDate: '2026-01-01 00:00:00',
});

/** A test app with a manual clock and private targets allowed (the receiver is on 127.0.0.1). */
export async function eventsTestApp() {
  const clock = manualClock('2026-03-01T12:00:00Z');
  const t = await buildTestApp({ clock, config: { allowPrivateTargets: true } });
  return { t, clock };
}

/** A delivery worker over the test app's database and clock; jitter fixed at its middle. */
export function testWorker(t: TestApp, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const deps = { db: t.database.db, clock: t.clock, config: testConfig({ allowPrivateTargets: true }) };
  return new DeliveryWorker(deps, { random: () => 0.5, ...options });
}

/** Subscribes the organisation of `apiToken` to every survey's completed responses, sent to `url`. */
export async function subscribeToCompletions(t: TestApp, apiToken: string, url: string): Promise<void> {
  const sub = await t.call(apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: url,
    topics: 'surveyengine.completedResponse.*',
  });
  if (sub.status !== 200) throw new Error(`subscription refused: ${JSON.stringify(sub.body)}`);
}

/** Emits an event the way a module does: inside its own transaction. */
export function emit(t: TestApp, brandId: string, topic: string, payload: Record<string, unknown>) {
  return t.database.db
    .transaction()
    .execute((trx) => recordEvent(trx, { organizationId: brandId }, topic, payload, t.clock.now()));
}

/** What a receiver does with MSG: HMAC-SHA512 hex with the key, and AES-ECB decryption by key length. */
export const receiverHmac = (msg: string, key: string) =>
  createHmac('sha512', Buffer.from(key, 'utf8')).update(msg).digest('hex');

export function receiverDecrypt(msg: string, key: string): string {
  const keyBytes = Buffer.from(key, 'utf8');
  const decipher = createDecipheriv(`aes-${keyBytes.length * 8}-ecb`, keyBytes, null);
  return Buffer.concat([decipher.update(Buffer.from(msg, 'base64')), decipher.final()]).toString('utf8');
}
