import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect/index.js';

// Survey taking at scale (issue 20, decision 0012).
// - `surveys.version`: what a node's compiled survey (its definition, name and engine model) is cached
//   under, with the id; every change of the definition or the name moves it, in the same statement.
// - A completion no longer writes the survey row: its response's `seq` comes from the `response_seq`
//   sequence, and the survey's auditable and generated counts are counted from its responses (an index
//   on (organization_id, survey_id, status)). The deleted count stays a column: only deleting a response moves it.
// Written against Kysely<any> so it stays frozen in time.
const SEQUENCE = 'response_seq';

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('surveys')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // SQLite drops one column a statement.
  for (const column of ['response_count_auditable', 'response_count_generated', 'last_response_seq']) {
    await db.schema.alterTable('surveys').dropColumn(column).execute();
  }
  await db.schema
    .createIndex('responses_survey_status')
    .on('responses')
    .columns(['organization_id', 'survey_id', 'status'])
    .execute();
  // Every survey's next number must come after its highest: start after the highest of all.
  const { rows } = await sql<{ top: number | string | null }>`select max(seq) as top from responses`.execute(
    db,
  );
  await dialectOf(db).createSequence(db, SEQUENCE, Number(rows[0]?.top ?? 0));
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('responses_survey_status').execute();
  for (const column of ['response_count_auditable', 'response_count_generated', 'last_response_seq']) {
    await db.schema
      .alterTable('surveys')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  const count = (where: ReturnType<typeof sql>) =>
    sql`(select count(*) from responses r where r.survey_id = surveys.id and ${where})`;
  await db
    .updateTable('surveys')
    .set({
      response_count_auditable: count(sql`r.status in (0, 16)`),
      response_count_generated: count(sql`r.status not in (0, 16)`),
      last_response_seq: sql`(select coalesce(max(r.seq), 0) from responses r where r.survey_id = surveys.id)`,
    })
    .execute();
  await db.schema.alterTable('surveys').dropColumn('version').execute();
  await dialectOf(db).dropSequence(db, SEQUENCE);
}
