import type { Kysely } from 'kysely';

// OAuth 2.0 client credentials and data centers (issue 17, decision 0011). A client acts as one user of its
// organisation with the scopes it was given; its secret and its access tokens are stored as SHA-256 hashes
// (decision 0002). Each organisation belongs to one data center: `datacenter` is null for those made
// before this migration, which belong to the deployment that holds them.
// Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('datacenter', 'text').execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // An organisation's clients, in creation order (the list call).
  await db.schema
    .createIndex('oauth_clients_organization')
    .on('oauth_clients')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A client's tokens by expiry: issuing one removes the client's expired ones.
  await db.schema
    .createIndex('oauth_tokens_client')
    .on('oauth_tokens')
    .columns(['client_id', 'expires_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_tokens').execute();
  await db.schema.dropTable('oauth_clients').execute();
  await db.schema.alterTable('organizations').dropColumn('datacenter').execute();
}
