import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
import type { ResponseRow } from '../responses/responses.store.js';

/** Which responses an export takes: recorded on or after `from`, before `to` (ISO seconds, UTC). */
export interface ExportFilter {
  surveyId: string;
  from?: string;
  to?: string;
}

function filtered<O>(
  query: SelectQueryBuilder<Database, 'responses', O>,
  scope: Scope,
  filter: ExportFilter,
): SelectQueryBuilder<Database, 'responses', O> {
  let q = query.where('organization_id', '=', scope.organizationId).where('survey_id', '=', filter.surveyId);
  if (filter.from !== undefined) q = q.where('recorded_date', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('recorded_date', '<', filter.to);
  return q;
}

/** How many responses the export will write (before `limit`): counted first, for an honest percentComplete. */
export async function countExportResponses(
  db: Queryable,
  scope: Scope,
  filter: ExportFilter,
): Promise<number> {
  const row = await filtered(db.selectFrom('responses'), scope, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One batch of the export's responses after sequence number `afterSeq`, in recorded order. */
export function listExportResponsesAfter(
  db: Queryable,
  scope: Scope,
  filter: ExportFilter,
  afterSeq: number,
  limit: number,
): Promise<ResponseRow[]> {
  return filtered(db.selectFrom('responses').selectAll(), scope, filter)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The export's responses in recorded order, a batch at a time (keyset on seq, the same on both engines). */
export async function* streamExportResponses(
  db: Queryable,
  scope: Scope,
  filter: ExportFilter,
  batchSize = 500,
): AsyncGenerator<ResponseRow> {
  let after = 0;
  for (;;) {
    const batch = await listExportResponsesAfter(db, scope, filter, after, batchSize);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.seq;
  }
}
