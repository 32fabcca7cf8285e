import type { Kysely } from 'kysely';

// Responses carry the survey version they were taken on (issue 15): `responses.survey_version` is the
// publication whose definition recorded the response, as `engine_sessions.survey_version` names it (the
// `surveys.version` that publication moved to; 0 before the first). It is the key the responses module
// loads that definition by (its labels, value keys and quotas) and finds the published version's id by.
// Rows from before stay null. Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').addColumn('survey_version', 'integer').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('responses').dropColumn('survey_version').execute();
}
