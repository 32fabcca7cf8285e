import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
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
  await db
    .updateTable('engine_sessions')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', sessionId)
    .execute();
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
