import type { Kysely } from 'kysely';

// Graphics (issue 12 item 2): one row per uploaded image; its bytes are in the BlobStore under
// `<organizationId>/graphics/<id>`. Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('graphics')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // An organisation's graphics, in upload order (when an organisation goes, or for a list call).
  await db.schema
    .createIndex('graphics_organization')
    .on('graphics')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('graphics').execute();
}
