/** "Evenly present" counts (migration 0022): read when a session starts, moved when a response is recorded. */
import { sql } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';

export interface PresentationCount {
  elementId: string;
  itemId: string;
  presented: number;
}

export async function listPresentationCounts(
  db: Queryable,
  scope: Scope,
  surveyId: string,
): Promise<PresentationCount[]> {
  const rows = await db
    .selectFrom('engine_presentation_counts')
    .select(['element_id', 'item_id', 'presented'])
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .execute();
  return rows.map((r) => ({ elementId: r.element_id, itemId: r.item_id, presented: Number(r.presented) }));
}

/** Adds one presentation of each item, in one statement (an insert, or one more on the existing row). */
export async function incrementPresentationCounts(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  items: { elementId: string; itemId: string }[],
): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('engine_presentation_counts')
    .values(
      items.map((item) => ({
        organization_id: scope.organizationId,
        survey_id: surveyId,
        element_id: item.elementId,
        item_id: item.itemId,
        presented: 1,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['survey_id', 'element_id', 'item_id'])
        .doUpdateSet({ presented: sql`engine_presentation_counts.presented + 1` }),
    )
    .execute();
}
