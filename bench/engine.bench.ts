/**
 * Issue 5: completed responses per second through the survey-taking engine's pages on SQLite: each
 * respondent opens the anonymous link (a new session), posts three pages (with a forced matrix and a
 * requested essay) and follows every redirect, as a browser does; the last page records the response
 * with its completion event (outbox row plus a delivery row for a subscriber). Beside it, the bare
 * insert of the same response rows through Kysely in the same process. The delivery worker is not
 * running: what is measured is taking and recording, not delivering.
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { newId } from '../src/http/ids.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { BenchResult } from './run.js';

const DURATION_S = 8;
const RESPONDENTS = 16;
const QSF = readFileSync(new URL('../test/fixtures/engine/pets.qsf', import.meta.url), 'utf8');
const PAGES: Record<string, string>[] = [
  { QID1: '1' },
  { QID2_TEXT: 'Rex', QID3: '1' },
  { QID4_1: '1', QID4_2: '2', _fw_action: 'continue' },
];

/** One respondent: a cookie jar and the redirects a browser would follow. */
async function respond(origin: string, surveyId: string): Promise<number> {
  let cookie = '';
  let requests = 0;
  const go = async (path: string, body?: URLSearchParams): Promise<string> => {
    let response = await fetch(`${origin}${path}`, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      ...(body ? { body } : {}),
    });
    requests++;
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0] ?? '';
    while (response.status === 303) {
      await response.arrayBuffer();
      response = await fetch(`${origin}${response.headers.get('location')}`, { headers: { cookie } });
      requests++;
    }
    return response.text();
  };
  const path = `/jfe/form/${surveyId}`;
  let page = await go(path);
  for (const fields of PAGES) {
    const form = new URLSearchParams(fields);
    for (const name of ['_fw_session', '_fw_page'])
      form.set(name, new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '');
    page = await go(path, form);
  }
  if (!page.includes('Thank you for telling us about your pets.')) throw new Error('the survey did not end');
  return requests;
}

async function engineRate(origin: string, surveyId: string) {
  const until = performance.now() + DURATION_S * 1000;
  let completed = 0;
  let requests = 0;
  await Promise.all(
    Array.from({ length: RESPONDENTS }, async () => {
      while (performance.now() < until) {
        const made = await respond(origin, surveyId);
        requests += made;
        completed++;
      }
    }),
  );
  return { completed: completed / DURATION_S, requests: requests / DURATION_S };
}

export default async function bench(): Promise<BenchResult> {
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const app = await buildApp({ config: readConfig({ data: ':memory:' }, {}), database, clock: systemClock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const headers = { 'x-api-token': org.apiToken, 'content-type': 'application/json' };
  const created = await fetch(`${origin}/API/v3/surveys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ file: QSF }),
  });
  const surveyId = ((await created.json()) as { result: { id: string } }).result.id;
  await fetch(`${origin}/API/v3/surveys/${surveyId}`, { method: 'PUT', headers, body: '{"isActive":true}' });
  await fetch(`${origin}/API/v3/eventsubscriptions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      topics: 'surveyengine.completedResponse.*',
      publicationUrl: 'https://receiver.example/hook',
    }),
  });

  try {
    await respond(origin, surveyId);
    const row = await database.db.selectFrom('responses').selectAll().executeTakeFirstOrThrow();
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
    await engineRate(origin, surveyId); // warm-up
    const engine = await engineRate(origin, surveyId);
    const events = await database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      name: 'Survey-taking engine page submissions (SQLite, with completion events) vs bare insert of the same rows',
      lines: [
        `${RESPONDENTS} respondents at once, ${DURATION_S} s each; 3 pages a response; ${Number(events.n)} completion events in all`,
        `bare insert:  ${baseline.toFixed(0)} rows/s`,
        `engine:       ${engine.completed.toFixed(0)} completed responses/s (${engine.requests.toFixed(0)} page requests/s)`,
        `ratio:        ${(engine.completed / baseline).toFixed(3)}`,
      ],
    };
  } finally {
    await app.close();
    await database.close();
  }
}
