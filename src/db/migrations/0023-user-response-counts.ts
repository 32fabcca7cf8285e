import { type Kysely, sql } from 'kysely';

// A survey owner's responseCounts (spec 2.5) leave the users row (issue 20): every completion of every
// survey of one owner updated that one row, and held its lock until commit, so completions of an owner's
// surveys queued on it. They move to a counter in stripes: a recording adds its delta to one stripe chosen
// at random, a read sums the stripes. The counts so far go to stripe 0. Decision 0012.
// Written against Kysely<any> so it stays frozen in time.
const COUNTS = ['auditable', 'generated', 'deleted'] as const;

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_response_counts')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stripe', 'integer', (c) => c.notNull())
    .addColumn('auditable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('user_response_counts_pk', ['organization_id', 'user_id', 'stripe'])
    .execute();
  await db
    .insertInto('user_response_counts')
    .columns(['organization_id', 'user_id', 'stripe', ...COUNTS])
    .expression(
      db
        .selectFrom('users')
        .select([
          'organization_id',
          'id',
          sql.lit(0).as('stripe'),
          ...COUNTS.map((count) => `response_count_${count}`),
        ])
        .where((eb) => eb.or(COUNTS.map((count) => eb(`response_count_${count}`, '<>', 0)))),
    )
    .execute();
  for (const count of COUNTS)
    await db.schema.alterTable('users').dropColumn(`response_count_${count}`).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const count of COUNTS)
    await db.schema
      .alterTable('users')
      .addColumn(`response_count_${count}`, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  for (const count of COUNTS)
    await db
      .updateTable('users')
      .set((eb) => ({
        [`response_count_${count}`]: eb.fn.coalesce(
          eb
            .selectFrom('user_response_counts as c')
            .select((s) => s.fn.sum(`c.${count}`).as('n'))
            .whereRef('c.user_id', '=', 'users.id'),
          sql.lit(0),
        ),
      }))
      .execute();
  await db.schema.dropTable('user_response_counts').execute();
}
