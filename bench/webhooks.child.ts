/**
 * The event side of the webhooks benchmark, in its own process: commits completion events (one per
 * transaction at a rate, or a burst in one transaction), step after step, on the storage the worker uses,
 * so that its database writes (better-sqlite3 waits for SQLite's lock synchronously) never delay the
 * receivers in the parent. Prints one `{committed: [[eventId, epochMs], ...], achieved}` per step, as a
 * JSON array; times are `performance.timeOrigin + performance.now()`, which the parent's receivers use too.
 */
import { createDatabase, type Db } from '../src/db/database.js';
import { recordEvent } from '../src/events/record-event.js';
import { completedResponseTopic } from '../src/events/topics.js';

/** One step: events a second for `seconds`, each in its own transaction; or `burst` events in one. */
export interface ProducerStep {
  surveyId: string;
  rate?: number;
  seconds?: number;
  burst?: number;
}

/** What the parent hands over (argv[2], JSON). */
export interface ProducerSpec {
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  organizationId: string;
  steps: ProducerStep[];
}

export interface StepResult {
  committed: [string, number][];
  achieved: number;
}

const epochNow = () => performance.timeOrigin + performance.now();

function payload(survey: string, n: number) {
  return {
    Status: 'Complete',
    SurveyID: survey,
    ResponseID: `R_${String(n).padStart(15, '0')}`,
    CompletedDate: '2026-01-01 00:00:00',
  };
}

/**
 * Transactions under way at once at most: several on PostgreSQL (a pool of connections), one on SQLite,
 * where a writer that queues its transactions back to back would keep the lock from the worker process.
 */
const outstanding = (spec: ProducerSpec) => (spec.databaseUrl ? 16 : 1);

/** On schedule, each in its own transaction, without waiting for the one before (a late one goes at once). */
async function paced(database: Db, spec: ProducerSpec, step: ProducerStep): Promise<StepResult> {
  const { rate = 1, seconds = 1 } = step;
  const topic = completedResponseTopic(step.surveyId);
  const scope = { organizationId: spec.organizationId };
  const committed: [string, number][] = [];
  const total = rate * seconds;
  const underWay = new Set<Promise<void>>();
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const wait = started + (n * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    if (underWay.size >= outstanding(spec)) await Promise.race(underWay);
    const one: Promise<void> = database.db
      .transaction()
      .execute((trx) => recordEvent(trx, scope, topic, payload(step.surveyId, n), new Date()))
      .then((id) => {
        committed.push([id, epochNow()]);
        underWay.delete(one);
      });
    underWay.add(one);
  }
  await Promise.all(underWay);
  return { committed, achieved: (total / (performance.now() - started)) * 1000 };
}

async function burst(database: Db, spec: ProducerSpec, step: ProducerStep): Promise<StepResult> {
  const topic = completedResponseTopic(step.surveyId);
  const scope = { organizationId: spec.organizationId };
  const ids = await database.db.transaction().execute(async (trx) => {
    const made: string[] = [];
    for (let n = 0; n < (step.burst ?? 0); n++)
      made.push(await recordEvent(trx, scope, topic, payload(step.surveyId, n), new Date()));
    return made;
  });
  const at = epochNow();
  return { committed: ids.map((id): [string, number] => [id, at]), achieved: Number.NaN };
}

const spec = JSON.parse(process.argv[2] ?? '{}') as ProducerSpec;
const database = createDatabase({
  dataDir: spec.dataDir,
  ...(spec.databaseUrl ? { databaseUrl: spec.databaseUrl, pgSchema: spec.pgSchema } : {}),
});
try {
  const results: StepResult[] = [];
  for (const step of spec.steps)
    results.push(step.burst ? await burst(database, spec, step) : await paced(database, spec, step));
  process.stdout.write(JSON.stringify(results));
} finally {
  await database.close();
}
