import type { Kysely } from 'kysely';

// Survey definitions as code (issue 15): the working definition the definitions API changes
// (`survey_drafts`), the versions published from it (`survey_versions`), and the version each engine
// session started at, which it runs to its end. Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('survey_drafts')
    .addColumn('survey_id', 'text', (c) => c.primaryKey().references('surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('survey_versions')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('version_number', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('published', 'integer', (c) => c.notNull())
    .addColumn('engine_version', 'integer')
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_versions_pk', ['survey_id', 'version_number'])
    .execute();
  await db.schema
    .createIndex('survey_versions_id')
    .on('survey_versions')
    .columns(['survey_id', 'id'])
    .unique()
    .execute();
  // The definition a pinned session runs: the latest publication at or before its version.
  await db.schema
    .createIndex('survey_versions_engine')
    .on('survey_versions')
    .columns(['survey_id', 'engine_version'])
    .execute();
  await db.schema.alterTable('engine_sessions').addColumn('survey_version', 'integer').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('engine_sessions').dropColumn('survey_version').execute();
  await db.schema.dropTable('survey_versions').execute();
  await db.schema.dropTable('survey_drafts').execute();
}
