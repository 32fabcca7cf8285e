import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import * as store from './responses.store.js';

/**
 * What the contacts module reads of a contact's responses (their `recipient_id` is the contact's id): its
 * stats and its history in the directory (issue 15 part 4).
 */
export interface RecipientResponse {
  responseId: string;
  surveyId: string;
  distributionId: string | null;
  recordedDate: string;
  finished: boolean;
}

/** One page (one row more than the page, for `pagedResult`) of the contact's responses, newest first. */
export async function listRecipientResponses(
  db: Queryable,
  scope: Scope,
  recipientId: string,
  page: Page,
): Promise<RecipientResponse[]> {
  const rows = await store.listRecipientResponses(db, scope, recipientId, page);
  return rows.map((row) => ({
    responseId: row.id,
    surveyId: row.survey_id,
    distributionId: row.distribution_id,
    recordedDate: row.recorded_date,
    finished: row.finished === 1,
  }));
}

/** How many responses the contact gave, and when the last one was recorded (ISO 8601, or null). */
export async function recipientResponseStats(
  db: Queryable,
  scope: Scope,
  recipientId: string,
): Promise<{ responseCount: number; lastResponseDate: string | null }> {
  const { count, last } = await store.countRecipientResponses(db, scope, recipientId);
  return { responseCount: count, lastResponseDate: last };
}
