import type { Kysely } from 'kysely';

// A session records at its start what it was started for, and its completion finishes that: a 360
// evaluator's id (issue 16) in `engine_sessions.started_for`. The engine calls its completion hook only
// for such a session, instead of asking the 360 module about every completion of every survey. Sessions
// of evaluations already started get their evaluator's id, so that they still finish the evaluation.
// Written against Kysely<any> so it stays frozen in time.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('engine_sessions').addColumn('started_for', 'text').execute();
  const evaluators = db.selectFrom('threesixty_evaluators');
  await db
    .updateTable('engine_sessions')
    .set({
      started_for: evaluators
        .select('threesixty_evaluators.id')
        .whereRef('threesixty_evaluators.session_id', '=', 'engine_sessions.id'),
    })
    .where('id', 'in', evaluators.select('session_id').where('session_id', 'is not', null))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('engine_sessions').dropColumn('started_for').execute();
}
