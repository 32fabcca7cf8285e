import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { EngineLinkTokensTable, EngineSessionsTable } from './engine.tables.js';

export type SessionRow = Selectable<EngineSessionsTable>;
export type LinkTokenRow = Selectable<EngineLinkTokensTable>;

/** By id alone: a browser's cookie names the session (its secret is checked by the service). */
export function findSessionById(db: Queryable, sessionId: string): Promise<SessionRow | undefined> {
  return db.selectFrom('engine_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

export function findSessionByLink(db: Queryable, tokenHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('engine_sessions')
    .selectAll()
    .where('link_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function insertSession(db: Queryable, row: Insertable<EngineSessionsTable>): Promise<void> {
  await db.insertInto('engine_sessions').values(row).execute();
}

export async function updateSession(
  db: Queryable,
  scope: Scope,
  sessionId: string,
  changes: Updateable<EngineSessionsTable>,
): Promise<void> {
  await sessionUpdate(db, scope, sessionId, changes).execute();
}

/** updateSession as a write, run with the recording's (engine.service.ts). */
export function sessionUpdate(
  db: Queryable,
  scope: Scope,
  sessionId: string,
  changes: Updateable<EngineSessionsTable>,
) {
  return db
    .updateTable('engine_sessions')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', sessionId);
}

export async function insertLinkToken(db: Queryable, row: Insertable<EngineLinkTokensTable>): Promise<void> {
  await db.insertInto('engine_link_tokens').values(row).execute();
}

/** By hash alone: an individual link carries nothing else. */
export function findLinkToken(db: Queryable, tokenHash: string): Promise<LinkTokenRow | undefined> {
  return db
    .selectFrom('engine_link_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Which open sessions (responses in progress) to read: `from`/`to` apply to when the session started. */
export interface OpenSessionFilter {
  surveyId: string;
  from?: string;
  to?: string;
  /** Only these sessions (an in-progress response's id is its session's); never empty. */
  responseIds?: readonly string[];
}

function openSessions(db: Queryable, scope: Scope, filter: OpenSessionFilter) {
  let q = db
    .selectFrom('engine_sessions')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', filter.surveyId)
    .where('status', '=', 'open');
  // started_at is Date.toISOString() text: compare in the same spelling.
  if (filter.from !== undefined) q = q.where('started_at', '>=', new Date(filter.from).toISOString());
  if (filter.to !== undefined) q = q.where('started_at', '<', new Date(filter.to).toISOString());
  if (filter.responseIds !== undefined) q = q.where('id', 'in', filter.responseIds);
  return q;
}

export async function countOpenSessions(
  db: Queryable,
  scope: Scope,
  filter: OpenSessionFilter,
): Promise<number> {
  const row = await openSessions(db, scope, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One batch of open sessions in the order they started, after `after` (keyset on started_at, id). */
export function listOpenSessionsAfter(
  db: Queryable,
  scope: Scope,
  filter: OpenSessionFilter,
  after: Pick<SessionRow, 'started_at' | 'id'> | undefined,
  limit: number,
): Promise<SessionRow[]> {
  let query = openSessions(db, scope, filter).selectAll();
  if (after) {
    const { started_at, id } = after;
    query = query.where((eb) =>
      eb.or([
        eb('started_at', '>', started_at),
        eb.and([eb('started_at', '=', started_at), eb('id', '>', id)]),
      ]),
    );
  }
  return query.orderBy('started_at').orderBy('id').limit(limit).execute();
}

/** The sessions of a distribution's individual links, for these contacts. */
export function listLinkSessions(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  contactIds: readonly string[],
): Promise<
  Pick<SessionRow, 'id' | 'recipient_id' | 'status' | 'response_id' | 'started_at' | 'finished_at'>[]
> {
  return db
    .selectFrom('engine_sessions')
    .select(['id', 'recipient_id', 'status', 'response_id', 'started_at', 'finished_at'])
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .where('recipient_id', 'in', contactIds)
    .execute();
}

/** How many of a distribution's link sessions started, and how many were recorded as responses. */
export async function countLinkSessions(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  contactIds?: readonly string[],
): Promise<{ started: number; finished: number }> {
  let query = db
    .selectFrom('engine_sessions')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('started'),
      eb.fn
        .sum<number | string | null>(eb.case().when('status', '=', 'complete').then(1).else(0).end())
        .as('finished'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId);
  if (contactIds) query = query.where('recipient_id', 'in', contactIds);
  const row = await query.executeTakeFirst();
  return { started: Number(row?.started ?? 0), finished: Number(row?.finished ?? 0) };
}

/** A session of the survey, in the caller's organisation. */
export function findSurveySession(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('engine_sessions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

/** Discards an open session (a recorded one stays: its response names it). True when one was deleted. */
export async function deleteOpenSession(db: Queryable, scope: Scope, sessionId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('engine_sessions')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', sessionId)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
