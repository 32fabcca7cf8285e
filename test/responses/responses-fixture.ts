import type { Kysely } from 'kysely';
import type { Database } from '../../src/tables.js';

/**
 * `count` completed responses written straight into a survey, 500 rows a statement: the bulk update test
 * needs 10,000, which the API would record one by one. Ids are `R_<tag><n>` (a 5-character tag, n padded
 * to 10 digits); `seq` numbers start far above what the response sequence hands out in a test.
 */
export async function insertResponses(
  db: Kysely<Database>,
  target: { organizationId: string; surveyId: string },
  count: number,
  tag: string,
): Promise<string[]> {
  const at = '2026-03-01T12:00:00Z';
  const ids = Array.from({ length: count }, (_, n) => `R_${tag}${String(n).padStart(10, '0')}`);
  for (let first = 0; first < count; first += 500) {
    const rows = ids.slice(first, first + 500).map((id, i) => ({
      id,
      organization_id: target.organizationId,
      survey_id: target.surveyId,
      seq: 1_000_000_000 + first + i,
      status: 0,
      finished: 1,
      progress: 100,
      duration: 60,
      start_date: at,
      end_date: at,
      recorded_date: at,
      ip_address: null,
      user_agent: null,
      user_language: null,
      recipient_id: null,
      distribution_id: null,
      distribution_channel: 'anonymous',
      session_id: null,
      values: JSON.stringify({ _recordId: id, status: 0, finished: 1, QID1: 10, panel: 'a' }),
      labels: JSON.stringify({ QID1: 'Apple' }),
      displayed_fields: '[]',
      displayed_values: '{}',
      embedded_data: JSON.stringify({ panel: 'a' }),
      updated_at: at,
    }));
    await db.insertInto('responses').values(rows).execute();
  }
  return ids;
}
