import type { Kysely } from 'kysely';

// A response keeps its json export members as it was recorded (issue 20, decision 0022): `export_json` is
// the `"values":{…},"labels":{…}` text the json writer writes for it, and `export_json_layout` the key of
// the layout that text was written on. An export whose layout has that key, without the options that
// change the text, copies it. Any change of a response's values clears both; rows from before stay null,
// and are written from their values as before. Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('export_json', 'text').execute();
  await db.schema.alterTable('responses').addColumn('export_json_layout', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').dropColumn('export_json_layout').execute();
  await db.schema.alterTable('responses').dropColumn('export_json').execute();
}
