import { createDatabase, type Db } from '../../src/db/database.js';
import { recordEvent } from '../../src/events/record-event.js';
import { completedResponseTopic } from '../../src/events/topics.js';

/** The same storage a spawned `fieldwork` uses (its SQLite file or its PostgreSQL schema), opened here. */
export function openCliStorage(env: Record<string, string>): Db {
  return createDatabase({ dataDir: env.FIELDWORK_DATA_DIR as string, databaseUrl: env.DATABASE_URL });
}

/** `count` completed-response events in one transaction, as a burst of completions would commit them. */
export async function emitMany(db: Db, brandId: string, count: number): Promise<string[]> {
  const topic = completedResponseTopic('SV_crashsafety0001');
  return db.db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const payload = {
        Status: 'Complete',
        SurveyID: 'SV_crashsafety0001',
        ResponseID: `R_${String(n).padStart(15, '0')}`,
      };
      ids.push(await recordEvent(trx, { organizationId: brandId }, topic, payload, new Date()));
    }
    return ids;
  });
}

/** webhook-id → how many times it arrived, and whether every copy carried the same body. */
export function tally(received: { headers: Record<string, unknown>; form: URLSearchParams }[]) {
  const copies = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const r of received) {
    const id = String(r.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
    const bodies = copies.get(id) ?? new Set<string>();
    bodies.add(r.form.get('MSG') ?? '');
    copies.set(id, bodies);
  }
  const consistent = [...copies.values()].every((bodies) => bodies.size === 1);
  return { counts, consistent };
}
