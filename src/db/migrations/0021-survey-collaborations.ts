import type { Kysely } from 'kysely';

// Survey sharing (issue 15 part 5): `POST /v3/surveys/{id}/permissions/collaborations` gives a user or a
// group of the organisation named permissions on one survey. One row per (survey, recipient); sharing
// again replaces the permissions. The index serves "the surveys shared with this user or these groups";
// `group_members_user` "the groups of this user" (a collaborator's groups are read on each survey call).
// Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('survey_collaborations')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'text', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('shared_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_collaborations_pk', ['survey_id', 'recipient_id'])
    .execute();
  await db.schema
    .createIndex('survey_collaborations_recipient')
    .on('survey_collaborations')
    .columns(['organization_id', 'recipient_id', 'survey_id'])
    .execute();
  await db.schema
    .createIndex('group_members_user')
    .on('group_members')
    .columns(['organization_id', 'user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('group_members_user').execute();
  await db.schema.dropTable('survey_collaborations').execute();
}
