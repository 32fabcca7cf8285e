import type { Kysely } from 'kysely';

// The survey-taking engine's sessions and individual-link tokens (issue 5). Written against Kysely<any>
// so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('engine_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('link_token_hash', 'text')
    .addColumn('recipient_id', 'text')
    .addColumn('distribution_id', 'text')
    .addColumn('response_id', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // Sessions of a survey by status (open sessions, a survey's deletion); one session per individual link.
  await db.schema
    .createIndex('engine_sessions_survey')
    .on('engine_sessions')
    .columns(['organization_id', 'survey_id', 'status'])
    .execute();
  await db.schema
    .createIndex('engine_sessions_link')
    .on('engine_sessions')
    .column('link_token_hash')
    .unique()
    .execute();

  await db.schema
    .createTable('engine_link_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('distribution_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema
    .createIndex('engine_link_tokens_distribution')
    .on('engine_link_tokens')
    .columns(['organization_id', 'distribution_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('engine_link_tokens').execute();
  await db.schema.dropTable('engine_sessions').execute();
}
