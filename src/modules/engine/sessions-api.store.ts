import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { SessionRow } from './sessions.store.js';

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
