import { type Kysely, sql } from 'kysely';

// Written against Kysely<any> so the migration stays frozen in time whatever the schema types become.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('directory_id', 'text', (c) => c.notNull().references('directories.id'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('email_key', 'text')
    .addColumn('phone', 'text')
    .addColumn('ext_ref', 'text')
    .addColumn('language', 'text')
    .addColumn('unsubscribed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bounced_at', 'text')
    .addColumn('embedded_data', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Directory listing, counts and search; import matching on email and on extRef (unique when given).
  await db.schema
    .createIndex('contacts_directory')
    .on('contacts')
    .columns(['organization_id', 'directory_id', 'id'])
    .execute();
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

  await db.schema
    .createTable('mailing_lists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('directory_id', 'text', (c) => c.notNull().references('directories.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('folder', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mailing_lists_directory')
    .on('mailing_lists')
    .columns(['organization_id', 'directory_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('mailing_list_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('mailing_list_id', 'text', (c) => c.notNull().references('mailing_lists.id'))
    .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id'))
    .addColumn('contact_lookup_id', 'text', (c) => c.notNull())
    .addColumn('unsubscribed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('mailing_list_members_pk', ['mailing_list_id', 'contact_id'])
    .execute();
  // Paging a list in a stable order (spec 4.3), covering the page query; finding a contact's memberships.
  await db.schema
    .createIndex('mailing_list_members_page')
    .on('mailing_list_members')
    .columns(['organization_id', 'mailing_list_id', 'added_at', 'contact_id', 'unsubscribed'])
    .execute();
  await db.schema
    .createIndex('mailing_list_members_contact')
    .on('mailing_list_members')
    .columns(['contact_id'])
    .execute();

  await db.schema
    .createTable('samples')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('mailing_list_id', 'text', (c) => c.notNull().references('mailing_lists.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('samples_list')
    .on('samples')
    .columns(['organization_id', 'mailing_list_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('sample_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('sample_id', 'text', (c) => c.notNull().references('samples.id'))
    .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id'))
    .addPrimaryKeyConstraint('sample_members_pk', ['sample_id', 'contact_id'])
    .execute();
  await db.schema
    .createIndex('sample_members_contact')
    .on('sample_members')
    .columns(['contact_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sample_members', 'samples', 'mailing_list_members', 'mailing_lists', 'contacts']) {
    await db.schema.dropTable(table).execute();
  }
}
