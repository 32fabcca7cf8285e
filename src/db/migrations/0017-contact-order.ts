import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect/index.js';

// Directory contacts paged with skipToken and with offset (issue 15 part 4), and a contact's responses.
// - `contacts.seq`: the order contacts were added in. A batch of up to 1,000 new contacts draws one number
//   of the `contact_seq` sequence and numbers its rows from `number * 1000`, so every contact added later
//   sorts after every contact there was: offset pages do not shift while contacts are added, and a
//   skipToken (the last (seq, id) read) never skips one that was there. Rows from before keep 0 and sort
//   among themselves by id. `bigint`: the numbers grow a thousand at a time.
// - `responses (organization_id, recipient_id)`: a contact's responses (its stats and history).
// Written against Kysely<any> so it stays frozen in time.
const SEQUENCE = 'contact_seq';

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contacts')
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('contacts_directory_order')
    .on('contacts')
    .columns(['organization_id', 'directory_id', 'seq', 'id'])
    .execute();
  await dialectOf(db).createSequence(db, SEQUENCE, 0);
  await db.schema
    .createIndex('responses_recipient')
    .on('responses')
    .columns(['organization_id', 'recipient_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('responses_recipient').execute();
  await dialectOf(db).dropSequence(db, SEQUENCE);
  await db.schema.dropIndex('contacts_directory_order').execute();
  await db.schema.alterTable('contacts').dropColumn('seq').execute();
}
