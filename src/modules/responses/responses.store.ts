import type { Insertable, Selectable, Updateable } from 'kysely';
import { dialectOf, type Write } from '../../db/dialect/index.js';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ResponsesTable } from './responses.tables.js';

export type ResponseRow = Selectable<ResponsesTable>;

/**
 * Rows per INSERT: 1,000 rows of 27 columns bind 27,000 values in a VALUES list, below both engines' limits
 * (SQLite's 32,766, PostgreSQL's 65,535), so a batch of an import is one statement. New responses on
 * PostgreSQL go as one JSON parameter a statement instead (responseInserts, numberedInsert).
 */
export const INSERT_ROWS = 1000;

/** Where `responses.seq` comes from (migration 0015): numbers that only grow, recorded order. */
const RESPONSE_SEQUENCE = 'response_seq';

/** Responses that already have their numbers (`seq`), written as they are. */
export async function insertResponses(db: Queryable, rows: Insertable<ResponsesTable>[]): Promise<void> {
  const writes: Write[] = [];
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    writes.push(db.insertInto('responses').values(rows.slice(i, i + INSERT_ROWS)));
  await dialectOf(db).runWrites(db, writes);
}

/**
 * The inserts of new responses, numbered from the responses' sequence in row order (the dialect's
 * numberedInsert), for a caller that runs them with its own writes (recording responses).
 */
export async function responseInserts(
  db: Queryable,
  rows: readonly Omit<Insertable<ResponsesTable>, 'seq'>[],
): Promise<Write[]> {
  const writes: Write[] = [];
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    writes.push(
      await dialectOf(db).numberedInsert(db, 'responses', rows.slice(i, i + INSERT_ROWS), {
        column: 'seq',
        sequence: RESPONSE_SEQUENCE,
      }),
    );
  return writes;
}

export function findResponse(
  db: Queryable,
  scope: Scope,
  responseId: string,
): Promise<ResponseRow | undefined> {
  return db
    .selectFrom('responses')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .executeTakeFirst();
}

/** Which of these ids exist, in any organisation (ids are unique across all): for response imports. */
export function listResponseOwners(db: Queryable, ids: readonly string[]) {
  return db
    .selectFrom('responses')
    .select(['id', 'organization_id', 'survey_id'])
    .where('id', 'in', ids)
    .execute();
}

/**
 * What a change of a response's values writes besides them: its stored json export members were written
 * from the values before, so they go (decision 0022), and an export writes the response from its values.
 */
const NO_EXPORT_JSON = { export_json: null, export_json_layout: null } as const;

export async function updateResponse(
  db: Queryable,
  scope: Scope,
  responseId: string,
  changes: Updateable<ResponsesTable>,
): Promise<void> {
  await db
    .updateTable('responses')
    .set({ ...changes, ...NO_EXPORT_JSON })
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .execute();
}

export async function deleteResponse(db: Queryable, scope: Scope, responseId: string): Promise<void> {
  await db
    .deleteFrom('responses')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .execute();
}

/** One batch of a survey's responses after sequence number `afterSeq`, in recorded order. */
export function listResponsesAfter(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  afterSeq: number,
  limit: number,
): Promise<ResponseRow[]> {
  return db
    .selectFrom('responses')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * Which responses an export takes: recorded on or after `from`, before `to` (ISO seconds, UTC), and after
 * recorded-order position `afterSeq` (an export continuing an earlier one).
 */
export interface ResponseExportFilter {
  surveyId: string;
  from?: string;
  to?: string;
  afterSeq?: number;
  /** Only these responses (or sessions in progress); never empty. */
  responseIds?: readonly string[];
}

/** The responses the filter takes, to select from (the same `where` for counting, listing and measuring). */
export function filteredResponses(db: Queryable, scope: Scope, filter: ResponseExportFilter) {
  let q = db
    .selectFrom('responses')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', filter.surveyId);
  if (filter.from !== undefined) q = q.where('recorded_date', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('recorded_date', '<', filter.to);
  if (filter.afterSeq !== undefined) q = q.where('seq', '>', filter.afterSeq);
  if (filter.responseIds !== undefined) q = q.where('id', 'in', filter.responseIds);
  return q;
}

export async function countFilteredResponses(
  db: Queryable,
  scope: Scope,
  filter: ResponseExportFilter,
): Promise<number> {
  const row = await filteredResponses(db, scope, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The JSON columns an export reads besides `values` (the format decides). Reading only those, not the
 * whole row, was measured to halve the time spent in the database driver.
 */
export interface ResponseExportParts {
  labels: boolean;
  displayedFields: boolean;
  displayedValues: boolean;
  /**
   * The key of the export's json layout, when the export copies stored json members (decision 0022): a
   * row stored on that layout then comes with `export_json`, and `values` and `labels` as `{}` (not read).
   */
  storedJson?: string;
}

export type ExportResponseRow = Pick<ResponseRow, 'id' | 'seq' | 'values'> &
  Partial<Pick<ResponseRow, 'labels' | 'displayed_fields' | 'displayed_values' | 'export_json'>>;

/** One batch of the filtered responses after sequence number `afterSeq`, in recorded order. */
export function listFilteredResponsesAfter(
  db: Queryable,
  scope: Scope,
  filter: ResponseExportFilter,
  page: { afterSeq: number; throughSeq: number; limit: number; parts: ResponseExportParts },
): Promise<ExportResponseRow[]> {
  const { parts } = page;
  const stored = parts.storedJson;
  return filteredResponses(db, scope, filter)
    .select((eb) => {
      // A row stored on the export's layout comes with its json members and needs neither its values nor
      // its labels (decision 0022): `{}` stands in for them.
      const onLayout =
        stored === undefined
          ? undefined
          : eb.and([eb('export_json_layout', '=', stored), eb('export_json', 'is not', null)]);
      const unlessStored = (column: 'values' | 'labels') =>
        onLayout === undefined
          ? eb.ref(column)
          : eb.case().when(onLayout).then('{}').else(eb.ref(column)).end();
      return [
        'id' as const,
        'seq' as const,
        unlessStored('values').as('values'),
        ...(parts.labels ? [unlessStored('labels').as('labels')] : []),
        ...(parts.displayedFields ? ['displayed_fields' as const] : []),
        ...(parts.displayedValues ? ['displayed_values' as const] : []),
        ...(onLayout === undefined
          ? []
          : [eb.case().when(onLayout).then(eb.ref('export_json')).else(null).end().as('export_json')]),
      ];
    })
    .where('seq', '>', page.afterSeq)
    .where('seq', '<=', page.throughSeq)
    .orderBy('seq')
    .limit(page.limit)
    .execute();
}

/** The survey's highest response `seq` (0 when it has none). */
export async function highestSeq(db: Queryable, scope: Scope, surveyId: string): Promise<number> {
  const row = await db
    .selectFrom('responses')
    .select((eb) => eb.fn.max('seq').as('top'))
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  return Number(row?.top ?? 0);
}

/** What a contact's history shows of a response it gave. */
export type RecipientResponseRow = Pick<
  ResponseRow,
  'id' | 'survey_id' | 'distribution_id' | 'recorded_date' | 'finished'
>;

/** The responses recorded for a recipient (a contact), newest first. */
export function listRecipientResponses(
  db: Queryable,
  scope: Scope,
  recipientId: string,
  page: Page,
): Promise<RecipientResponseRow[]> {
  return db
    .selectFrom('responses')
    .select(['id', 'survey_id', 'distribution_id', 'recorded_date', 'finished'])
    .where('organization_id', '=', scope.organizationId)
    .where('recipient_id', '=', recipientId)
    .orderBy('recorded_date', 'desc')
    .orderBy('id', 'desc')
    .$call(pageWindow(page))
    .execute();
}

/** How many responses a recipient gave, and when the last was recorded (null when none). */
export async function countRecipientResponses(
  db: Queryable,
  scope: Scope,
  recipientId: string,
): Promise<{ count: number; last: string | null }> {
  const row = await db
    .selectFrom('responses')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('recorded_date').as('last')])
    .where('organization_id', '=', scope.organizationId)
    .where('recipient_id', '=', recipientId)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), last: row?.last ?? null };
}

/** What a bulk update of embedded data reads of each response it changes. */
export type EmbeddedDataRow = Pick<ResponseRow, 'id' | 'values' | 'embedded_data'>;

/** The survey's responses among `ids` (a bulk update's batch: one statement). */
export function listSurveyResponsesByIds(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  ids: readonly string[],
): Promise<EmbeddedDataRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('responses')
    .select(['id', 'values', 'embedded_data'])
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Writes the new values and embedded data of many responses of the scope in one statement (a CASE on the
 * id per column): a bulk update's batch, where a statement per response cost 20 times more on PostgreSQL.
 */
export async function updateEmbeddedData(
  db: Queryable,
  scope: Scope,
  rows: readonly { id: string; values: string; embedded_data: string }[],
  updatedAt: string,
): Promise<void> {
  const [first, ...rest] = rows;
  if (!first) return;
  await db
    .updateTable('responses')
    .set((eb) => {
      const byId = (column: 'values' | 'embedded_data') => {
        let choice = eb.case().when('id', '=', first.id).then(first[column]);
        for (const row of rest) choice = choice.when('id', '=', row.id).then(row[column]);
        return choice.else(eb.ref(column)).end();
      };
      return {
        values: byId('values'),
        embedded_data: byId('embedded_data'),
        updated_at: updatedAt,
        ...NO_EXPORT_JSON,
      };
    })
    .where('organization_id', '=', scope.organizationId)
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
}
