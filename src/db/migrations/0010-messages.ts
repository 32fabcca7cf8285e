import type { Kysely } from 'kysely';

// Library messages (issue 12 item 1): one row a message, its HTML per language as JSON text. Written
// against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('library_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('library_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A library's messages in creation order, all or of one category (the list call's two shapes).
  await db.schema
    .createIndex('library_messages_library')
    .on('library_messages')
    .columns(['organization_id', 'library_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('library_messages_category')
    .on('library_messages')
    .columns(['organization_id', 'library_id', 'category', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('library_messages').execute();
}
