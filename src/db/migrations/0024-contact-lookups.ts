import { type Kysely, sql } from 'kysely';

// An import matches each batch's contacts on extRef and on email, scoped by organisation and directory
// (issue 20). Its lookups filter on `organization_id, directory_id` and a key, and SQLite (without
// statistics) read them through `contacts_directory_order` (0017), which starts with those two columns:
// every batch scanned the whole directory, so a million-row import slowed with every batch. The key
// indexes now start with the same two columns, so the lookup seeks its keys. Uniqueness is the same: a
// directory belongs to one organisation. Written against Kysely<any> so it stays frozen in time.

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contacts_email').execute();
  await db.schema.dropIndex('contacts_ext_ref').execute();
  await db.schema
    .createIndex('contacts_email')
    .on('contacts')
    .columns(['organization_id', 'directory_id', 'email_key'])
    .execute();
  await db.schema
    .createIndex('contacts_ext_ref')
    .on('contacts')
    .columns(['organization_id', 'directory_id', 'ext_ref'])
    .unique()
    .where(sql.ref('ext_ref'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('contacts_email').execute();
  await db.schema.dropIndex('contacts_ext_ref').execute();
  await db.schema
    .createIndex('contacts_email')
    .on('contacts')
    .columns(['directory_id', 'email_key'])
    .execute();
  await db.schema
    .createIndex('contacts_ext_ref')
    .on('contacts')
    .columns(['directory_id', 'ext_ref'])
    .unique()
    .where(sql.ref('ext_ref'), 'is not', null)
    .execute();
}
