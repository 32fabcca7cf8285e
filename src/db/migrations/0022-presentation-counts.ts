import type { Kysely } from 'kysely';

// "Evenly present" (issue 13): how often each question of an evenly presented block subset, and each
// child of an evenly presenting block randomizer, was presented in a recorded response of the survey. A new
// session is given the least presented; the counts move in the transaction that records a response.
// Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('engine_presentation_counts')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('element_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('presented', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('engine_presentation_counts_pk', ['survey_id', 'element_id', 'item_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('engine_presentation_counts').execute();
}
