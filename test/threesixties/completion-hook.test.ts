import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSession, type SessionCompletion } from '../../src/modules/engine/engine.service.js';
import { loadRunnableSurvey, type RunnableSurvey } from '../../src/modules/engine/engine-survey.js';
import { findSession, newSession } from '../../src/modules/engine/sessions.service.js';
import { databaseAtMigration } from '../helpers/database-at-migration.js';
import { testConfig } from '../helpers/test-app.js';
import {
  activate,
  addSubject,
  api,
  createProgram,
  nominate,
  takeEvaluation,
  threeSixtyWorld,
  type World,
} from './threesixty-helpers.js';

/**
 * The engine's completion hook runs only for a session that records, at its start, what it was started
 * for (`engine_sessions.started_for`): a 360 evaluation's session. An ordinary survey's completion asks
 * the 360 module nothing.
 */
const visitor = { ip: '127.0.0.1', userAgent: 'vitest' };

let w: World;
let run: RunnableSurvey;
beforeAll(async () => {
  w = await threeSixtyWorld();
  const loaded = await loadRunnableSurvey(w.t.database.db, w.surveyId, w.clock.now());
  if (!loaded) throw new Error('the evaluation survey cannot be run');
  run = loaded;
});
afterAll(() => w.close());

/** The engine's deps with a hook that only counts what it is told. */
function countingDeps() {
  const calls: SessionCompletion[] = [];
  const deps = {
    db: w.t.database.db,
    clock: w.clock,
    config: testConfig(),
    onSessionCompleted: async (_trx: unknown, completion: SessionCompletion) => {
      calls.push(completion);
    },
  };
  return { deps, calls };
}

/** Starts a session (as stored: read back through its cookie key) and records it as it is. */
async function startAndComplete(deps: ReturnType<typeof countingDeps>['deps'], startedFor?: string) {
  const { key } = await newSession(deps, run, { given: {}, visitor, ...(startedFor ? { startedFor } : {}) });
  const session = await findSession(deps.db, w.surveyId, key);
  if (!session) throw new Error('the session was not stored');
  const screen = await closeSession(deps, run, session, visitor);
  expect(screen).toMatchObject({ kind: 'end', reason: 'complete' });
  const closed = await findSession(deps.db, w.surveyId, key);
  expect(closed?.status).toBe('complete');
  expect(closed?.response_id).toMatch(/^R_/);
  return closed;
}

describe('the completion hook', () => {
  it('is not called when an ordinary session completes, though its response is recorded', async () => {
    const { deps, calls } = countingDeps();
    const session = await startAndComplete(deps);
    expect(session?.started_for).toBeNull();
    expect(calls).toEqual([]);
  });

  it('is called once, with what the session was started for, when such a session completes', async () => {
    const { deps, calls } = countingDeps();
    const session = await startAndComplete(deps, 'TSE_started_for_test');
    expect(calls).toEqual([
      {
        organizationId: w.org.brandId,
        surveyId: w.surveyId,
        sessionId: session?.id,
        startedFor: 'TSE_started_for_test',
        responseId: session?.response_id,
        now: w.clock.now(),
      },
    ]);
  });

  it('finishes a 360 evaluation, whose session names its evaluator', async () => {
    const programId = await createProgram(w, { relationships: [{ name: 'Peer', min: 1, max: 2 }] });
    await activate(w, programId);
    const subject = await addSubject(w, programId);
    const nomination = await nominate(w, programId, subject.id, 'Peer', 'Alan');
    await takeEvaluation(w, nomination.evaluationUrl, 4);
    const list = await api(w, 'GET', `/threesixties/${programId}/subjects/${subject.id}/nominations`);
    expect(list.elements).toHaveLength(1);
    expect(list.elements[0]).toMatchObject({ id: nomination.id, status: 'Finished' });
    const session = await w.t.database.db
      .selectFrom('engine_sessions')
      .select(['started_for', 'response_id'])
      .where('id', '=', list.elements[0].sessionId)
      .executeTakeFirst();
    expect(session).toEqual({ started_for: nomination.id, response_id: list.elements[0].responseId });
    expect((await api(w, 'GET', `/threesixties/${programId}/subjects/${subject.id}`)).status).toBe('Done');
  });
});

describe('migration 0020', () => {
  it('names the evaluator of an evaluation started before it, and nothing for other sessions', async () => {
    const { database, migrateTo, drop } = await databaseAtMigration('0019-response-version');
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0020
      const db = database.db as unknown as Kysely<any>;
      await seedBefore0020(db);
      await expect(migrateTo('0020-session-started-for')).resolves.toBeUndefined();
      const rows = await db
        .selectFrom('engine_sessions')
        .select(['id', 'started_for'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'FS_evaluation', started_for: 'TSE_1' },
        { id: 'FS_ordinary', started_for: null },
      ]);
    } finally {
      await database.close();
      await drop();
    }
  });
});

const at = '2026-01-01T00:00:00Z';

/** An organisation, an evaluator whose evaluation is started, its session and an ordinary session. */
// biome-ignore lint/suspicious/noExplicitAny: as above
async function seedBefore0020(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('organizations')
    .values({ id: 'org1', name: 'o', type: 'Standard', status: 'Active', created_at: at })
    .execute();
  const session = (id: string) => ({
    id,
    organization_id: 'org1',
    survey_id: 'SV_1',
    secret_hash: `hash-${id}`,
    status: 'open',
    state: '{}',
    started_at: at,
    updated_at: at,
  });
  await db
    .insertInto('engine_sessions')
    .values([session('FS_evaluation'), session('FS_ordinary')])
    .execute();
  await db
    .insertInto('threesixty_evaluators')
    .values({
      id: 'TSE_1',
      organization_id: 'org1',
      threesixty_id: 'TS_1',
      subject_id: 'TSP_1',
      email: 'e@example.org',
      first_name: 'E',
      last_name: 'V',
      relationship: 'Peer',
      nominated: 1,
      status: 'Started',
      session_id: 'FS_evaluation',
      created_at: at,
      started_at: at,
    })
    .execute();
}
