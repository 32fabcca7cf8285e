import type { Kysely } from 'kysely';

// Event subscriptions and the transactional outbox (issue 4). Written against Kysely<any>, like 0001.
// biome-ignore lint/suspicious/noExplicitAny: frozen in time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_subscriptions')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('topics', 'text', (c) => c.notNull())
    .addColumn('publication_url', 'text', (c) => c.notNull())
    .addColumn('encrypt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shared_key', 'text')
    .addColumn('successful_calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Per organisation: a caller-chosen id taken elsewhere must not reveal that other organisation.
    .addPrimaryKeyConstraint('event_subscriptions_pk', ['organization_id', 'id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('event_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('round_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('last_http_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint(
      'event_deliveries_subscription',
      ['organization_id', 'subscription_id'],
      'event_subscriptions',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // The claim query: due pending rows in due order.
  await db.schema
    .createIndex('event_deliveries_due')
    .on('event_deliveries')
    .columns(['status', 'due_at'])
    .execute();
  // The delivery log of one subscription, newest first.
  await db.schema
    .createIndex('event_deliveries_subscription')
    .on('event_deliveries')
    .columns(['organization_id', 'subscription_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('event_delivery_attempts')
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('event_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('worker', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_delivery_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event_delivery_attempts', 'event_deliveries', 'events', 'event_subscriptions']) {
    await db.schema.dropTable(table).execute();
  }
}
