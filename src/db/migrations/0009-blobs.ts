import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect/index.js';

// The database blob store (issue 18 item 5): contents in `blobs`, their bytes in `blob_chunks`. Written
// against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.unique())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // removeStale: leftovers by state and age. An organisation's blobs, for when an organisation goes.
  await db.schema.createIndex('blobs_state').on('blobs').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('blobs_org').on('blobs').columns(['organization_id', 'key']).execute();

  await db.schema
    .createTable('blob_chunks')
    .addColumn('blob_id', 'text', (c) => c.notNull().references('blobs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', dialectOf(db).binaryType, (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['blob_id', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blob_chunks').execute();
  await db.schema.dropTable('blobs').execute();
}
