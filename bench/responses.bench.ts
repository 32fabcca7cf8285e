/**
 * Issue 5: completed responses per second through `POST /API/v3/surveys/{id}/responses` on SQLite, each
 * one written with its counters, quota counts and the completion event (outbox row plus a delivery row
 * for a subscriber), against the bare insert of the same response rows through Kysely in the same process.
 * The delivery worker is not running: what is measured is recording, not delivering.
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { newId } from '../src/http/ids.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import { requestsPerSecond } from './load.js';
import type { BenchResult } from './run.js';

const DURATION_S = 8;
const CONNECTIONS = 16;
const QSF = readFileSync(new URL('../test/fixtures/surveys/small.qsf', import.meta.url), 'utf8');
const VALUES = { QID1: 10, QID2_1: 1, QID3_TEXT: 'Lovely', QID4_1: 5, QID4_2: 1, QID5: 9, panel: 'bench' };

export default async function bench(): Promise<BenchResult> {
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const app = await buildApp({ config: readConfig({ data: ':memory:' }, {}), database, clock: systemClock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/API/v3`;
  const headers = { 'x-api-token': org.apiToken, 'content-type': 'application/json' };
  const survey = await fetch(`${base}/surveys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ file: QSF }),
  });
  const surveyId = ((await survey.json()) as { result: { id: string } }).result.id;
  await fetch(`${base}/eventsubscriptions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      topics: 'surveyengine.completedResponse.*',
      publicationUrl: 'https://receiver.example/hook',
    }),
  });
  const url = `${base}/surveys/${surveyId}/responses`;
  const body = JSON.stringify({ values: VALUES });
  const sample = await fetch(url, { method: 'POST', headers, body });
  const responseId = ((await sample.json()) as { result: { responseId: string } }).result.responseId;
  const row = await database.db
    .selectFrom('responses')
    .selectAll()
    .where('id', '=', responseId)
    .executeTakeFirstOrThrow();

  try {
    let seq = 1_000_000;
    const bareInsert = async () => {
      const until = performance.now() + DURATION_S * 1000;
      let count = 0;
      while (performance.now() < until) {
        await database.db
          .insertInto('responses')
          .values({ ...row, id: newId('R'), seq: seq++, session_id: null })
          .execute();
        count++;
      }
      return count / DURATION_S;
    };
    await bareInsert(); // warm-up
    const baseline = await bareInsert();
    const fieldwork = await requestsPerSecond(url, headers, {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      method: 'POST',
      body,
    });
    const events = await database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      name: 'POST /API/v3/surveys/{id}/responses (SQLite, with completion events) vs bare insert of the same rows',
      lines: [
        `${CONNECTIONS} connections, ${DURATION_S} s each; ${Number(events.n)} completion events recorded in all`,
        `bare insert:  ${baseline.toFixed(0)} rows/s`,
        `fieldwork:    ${fieldwork.toFixed(0)} responses/s`,
        `ratio:        ${(fieldwork / baseline).toFixed(2)}`,
      ],
    };
  } finally {
    await app.close();
    await database.close();
  }
}
