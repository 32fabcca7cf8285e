import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect/index.js';

// Usernames were unique across the whole store: one organisation could take `admin@squat` and so block
// `fieldwork init --brand squat`, and its 409 told that the name existed elsewhere. Now a username is
// unique within its organisation only.

// The two engines change a column constraint in different ways: the one migration that names the engine
// (every other difference is a named dialect function).
// Written against Kysely<any> so the migration stays frozen in time whatever the schema types become.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db).engine === 'postgres') {
    await sql`alter table users drop constraint users_username_key`.execute(db);
  } else {
    await rebuildSqliteUsers(db, GLOBAL_UNIQUE, NOT_UNIQUE);
  }
  await db.schema
    .createIndex('users_org_username')
    .unique()
    .on('users')
    .columns(['organization_id', 'username'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_org_username').execute();
  if (dialectOf(db).engine === 'postgres') {
    await sql`alter table users add constraint users_username_key unique (username)`.execute(db);
  } else {
    await rebuildSqliteUsers(db, NOT_UNIQUE, GLOBAL_UNIQUE);
  }
}

/** The column as 0001-identity made it on SQLite (Kysely's text, frozen with that migration), and without. */
const GLOBAL_UNIQUE = '"username" text not null unique';
const NOT_UNIQUE = '"username" text not null';

/**
 * SQLite cannot drop a column constraint: the table is rebuilt from its own definition with the one
 * column changed, the documented way (sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes"). Foreign keys are off meanwhile, or dropping `users` would cascade to tokens and memberships;
 * they are checked before the commit. Kysely runs SQLite migrations outside a transaction, so the
 * pragma takes effect here.
 */
// biome-ignore lint/suspicious/noExplicitAny: see up()
async function rebuildSqliteUsers(db: Kysely<any>, from: string, to: string): Promise<void> {
  const table = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  if (!definition.includes(from)) throw new Error(`users: expected the column ${from} in ${definition}`);
  const indexes = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = 'users' and sql is not null`.execute(
    db,
  );
  const created = definition
    .replace('CREATE TABLE "users"', 'CREATE TABLE "users_rebuilt"')
    .replace(from, to);

  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(created).execute(trx);
      await sql`insert into users_rebuilt select * from users`.execute(trx);
      await sql`drop table users`.execute(trx);
      await sql`alter table users_rebuilt rename to users`.execute(trx);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('users: the rebuild broke a foreign key');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
