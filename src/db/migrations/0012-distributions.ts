import type { Kysely } from 'kysely';

// E-mail distributions and their recipients (issue 12). Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('distributions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('request_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('root_id', 'text', (c) => c.notNull())
    .addColumn('link_type', 'text', (c) => c.notNull())
    .addColumn('link_expires_at', 'text')
    .addColumn('library_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('message_text', 'text')
    .addColumn('message_body', 'text', (c) => c.notNull())
    .addColumn('from_email', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reply_to_email', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('mailing_list_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text')
    .addColumn('sample_id', 'text')
    .addColumn('send_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('recipients_collected', 'integer', (c) => c.notNull())
    .addColumn('link_base_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('distributions_survey')
    .on('distributions')
    .columns(['organization_id', 'survey_id', 'send_date'])
    .execute();

  await db.schema
    .createTable('distribution_recipients')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('distribution_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text', (c) => c.notNull())
    .addColumn('contact_lookup_id', 'text')
    .addColumn('email', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('ext_ref', 'text')
    .addColumn('language', 'text')
    .addColumn('embedded_data', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('sending_owner', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('link_sealed', 'text')
    .addColumn('token_hash', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('opened_at', 'text')
    .addColumn('unsubscribed_at', 'text')
    .addPrimaryKeyConstraint('distribution_recipients_pk', ['distribution_id', 'contact_id'])
    .execute();
  // The sender's next due rows; the opt-out and open-tracking links find their recipient by token.
  await db.schema
    .createIndex('distribution_recipients_due')
    .on('distribution_recipients')
    .columns(['distribution_id', 'state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('distribution_recipients_token')
    .on('distribution_recipients')
    .column('token_hash')
    .unique()
    .execute();
  // Links and stats read a distribution's survey sessions (the engine's table) by distribution and contact.
  await db.schema
    .createIndex('engine_sessions_distribution')
    .on('engine_sessions')
    .columns(['distribution_id', 'recipient_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('engine_sessions_distribution').execute();
  await db.schema.dropTable('distribution_recipients').execute();
  await db.schema.dropTable('distributions').execute();
}
