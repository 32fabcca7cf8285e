import type { Kysely } from 'kysely';

// Surveys, quotas and responses (issue 5). Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('surveys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('response_count_auditable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_count_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_count_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_response_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The paged list of an organisation's surveys (all of them, or one owner's).
  await db.schema
    .createIndex('surveys_org')
    .on('surveys')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('surveys_owner')
    .on('surveys')
    .columns(['organization_id', 'owner_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('survey_quotas')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('quota_limit', 'integer', (c) => c.notNull())
    .addColumn('current_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('logic', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_quotas_pk', ['survey_id', 'id'])
    .execute();

  await db.schema
    .createTable('responses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('finished', 'integer', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('recorded_date', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('user_language', 'text')
    .addColumn('recipient_id', 'text')
    .addColumn('distribution_id', 'text')
    .addColumn('distribution_channel', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('values', 'text', (c) => c.notNull())
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('displayed_fields', 'text', (c) => c.notNull())
    .addColumn('displayed_values', 'text', (c) => c.notNull())
    .addColumn('embedded_data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A survey's responses in recorded order (the streaming reader, exports); also unique per survey.
  await db.schema
    .createIndex('responses_survey_seq')
    .on('responses')
    .columns(['survey_id', 'seq'])
    .unique()
    .execute();
  // An engine session completes at most once.
  await db.schema.createIndex('responses_session').on('responses').columns(['session_id']).unique().execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['responses', 'survey_quotas', 'surveys']) {
    await db.schema.dropTable(table).execute();
  }
}
