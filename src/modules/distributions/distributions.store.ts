import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { DistributionsTable } from './distributions.tables.js';

export type DistributionRow = Selectable<DistributionsTable>;

export async function insertDistribution(db: Queryable, row: Insertable<DistributionsTable>): Promise<void> {
  await db.insertInto('distributions').values(row).execute();
}

export function findDistribution(
  db: Queryable,
  scope: Scope,
  distributionId: string,
): Promise<DistributionRow | undefined> {
  return db
    .selectFrom('distributions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', distributionId)
    .executeTakeFirst();
}

export interface DistributionFilter {
  surveyId: string;
  /** Only the distributions this user made (a caller who is not a brand administrator). */
  ownerId?: string;
  requestType?: string;
  mailingListId?: string;
  /** send_date bounds, Date.toISOString() text. */
  sendFrom?: string;
  sendTo?: string;
}

export function listDistributions(
  db: Queryable,
  scope: Scope,
  filter: DistributionFilter,
  page: Page,
): Promise<DistributionRow[]> {
  let query = db
    .selectFrom('distributions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', filter.surveyId);
  if (filter.ownerId !== undefined) query = query.where('owner_id', '=', filter.ownerId);
  if (filter.requestType !== undefined) query = query.where('request_type', '=', filter.requestType);
  if (filter.mailingListId !== undefined) query = query.where('mailing_list_id', '=', filter.mailingListId);
  if (filter.sendFrom !== undefined) query = query.where('send_date', '>=', filter.sendFrom);
  if (filter.sendTo !== undefined) query = query.where('send_date', '<', filter.sendTo);
  return query.orderBy('send_date').orderBy('id').$call(pageWindow(page)).execute();
}

/** Changes the distribution when its status is one of `from` (all when absent); answers how many rows changed. */
export async function updateDistribution(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  changes: Updateable<DistributionsTable>,
  from?: readonly string[],
): Promise<number> {
  let query = db
    .updateTable('distributions')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', distributionId);
  if (from) query = query.where('status', 'in', from);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
