import { type Kysely, sql } from 'kysely';

// The delivery claim reads pending rows in (due_at, id) order and stops at its limit. With an index on
// (status, due_at) PostgreSQL planned a bitmap scan and a sort over every entry of status 'pending',
// including the dead ones a delivered row leaves until vacuum (a bitmap scan never marks them dead, so
// each claim paid for them again). A partial index of pending rows in claim order lets both engines read
// the first due rows in order and stop, and an index scan marks dead entries as it passes them (issue 18).
// Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('event_deliveries_pending_due')
    .on('event_deliveries')
    .columns(['due_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema.dropIndex('event_deliveries_due').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('event_deliveries_due')
    .on('event_deliveries')
    .columns(['status', 'due_at'])
    .execute();
  await db.schema.dropIndex('event_deliveries_pending_due').execute();
}
