import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ThreeSixtyEvaluatorsTable } from './threesixties.tables.js';

export type EvaluatorRow = Selectable<ThreeSixtyEvaluatorsTable>;

export function findEvaluator(
  db: Queryable,
  scope: Scope,
  subjectId: string,
  evaluatorId: string,
): Promise<EvaluatorRow | undefined> {
  return db
    .selectFrom('threesixty_evaluators')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('subject_id', '=', subjectId)
    .where('id', '=', evaluatorId)
    .executeTakeFirst();
}

/** By the evaluation link's token alone. */
export function findEvaluatorByToken(db: Queryable, tokenHash: string): Promise<EvaluatorRow | undefined> {
  return db
    .selectFrom('threesixty_evaluators')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** By its id alone (within the organisation): the evaluator an engine session was started for. */
export function findEvaluatorById(
  db: Queryable,
  scope: Scope,
  evaluatorId: string,
): Promise<EvaluatorRow | undefined> {
  return db
    .selectFrom('threesixty_evaluators')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', evaluatorId)
    .executeTakeFirst();
}

export function listEvaluators(db: Queryable, scope: Scope, subjectId: string, page?: Page) {
  return db
    .selectFrom('threesixty_evaluators')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('subject_id', '=', subjectId)
    .orderBy('created_at')
    .orderBy('id')
    .$if(page !== undefined, (q) => q.$call(pageWindow(page as Page)))
    .execute();
}

export async function insertEvaluator(
  db: Queryable,
  row: Insertable<ThreeSixtyEvaluatorsTable>,
): Promise<void> {
  await db.insertInto('threesixty_evaluators').values(row).execute();
}

/** Changes an evaluator whose status is still `from`; answers how many rows changed (0 or 1). */
export async function updateEvaluator(
  db: Queryable,
  scope: Scope,
  evaluatorId: string,
  changes: Updateable<ThreeSixtyEvaluatorsTable>,
  from: string,
): Promise<number> {
  const result = await db
    .updateTable('threesixty_evaluators')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', evaluatorId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The evaluator and its mails. */
export async function deleteEvaluator(db: Queryable, scope: Scope, evaluatorId: string): Promise<void> {
  await db
    .deleteFrom('threesixty_mails')
    .where('organization_id', '=', scope.organizationId)
    .where('evaluator_id', '=', evaluatorId)
    .execute();
  await db
    .deleteFrom('threesixty_evaluators')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', evaluatorId)
    .execute();
}
