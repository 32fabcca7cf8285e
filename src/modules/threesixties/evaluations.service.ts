/**
 * Evaluations (issue 16): an evaluator opens their link, the survey engine runs the evaluation survey with
 * the subject's name as embedded data, and the engine tells this module when the session is recorded as a
 * response (`evaluationFinished`, in the recording's transaction). A subject whose counted finished
 * evaluations meet every relationship's minimum becomes Done and its report ready; fewer again make it
 * Waiting. Events of one change are stamped a millisecond apart in the order they happen, so they fall due
 * (and a receiver taking one at a time gets them) in causal order.
 */
import type { Transaction } from 'kysely';
import { dialectOf } from '../../db/dialect/index.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import type { Database } from '../../tables.js';
import type { SessionCompletion } from '../engine/engine.service.js';
import type { RunnableSurvey } from '../engine/engine-survey.js';
import { newSession, type SessionKey, type Visitor } from '../engine/sessions.service.js';
import { type EvaluatorRow, findEvaluatorById, listEvaluators, updateEvaluator } from './evaluators.store.js';
import { linkUrl, newLinkToken } from './links.js';
import {
  findSubject,
  findThreeSixty,
  listSubjects,
  type SubjectRow,
  type ThreeSixtyRow,
  updateSubject,
} from './threesixties.store.js';
import { evaluationStatusChanged, personStatusChanged, reportReady } from './threesixty-events.js';
import { counts, subjectStatus, workflowOf } from './workflow.js';

export type Trx = Transaction<Database>;

/** Nominations, removals and finished evaluations of one subject are counted one at a time. */
const SUBJECT_LOCK = 4_242_360;

export const lockSubject = (trx: Trx, subjectId: string) =>
  dialectOf(trx).lockKeys(trx, SUBJECT_LOCK, [subjectId]);

/** The n-th event of a change: `now` plus n milliseconds (see the header). */
export const eventTime = (now: Date, n: number) => new Date(now.getTime() + n);

/**
 * The subject's status from its counted finished evaluations; when it changes, the subject is updated and
 * `threesixty.person.statusChanged` recorded, and on Done a new report link and `threesixty.reportReady`.
 * Answers how many events it recorded. Call it holding the subject's lock.
 */
export async function recountSubject(
  trx: Trx,
  scope: Scope,
  program: ThreeSixtyRow,
  subject: SubjectRow,
  now: Date,
  firstEvent = 0,
): Promise<number> {
  const workflow = workflowOf(program);
  const evaluators = await listEvaluators(trx, scope, subject.id);
  const finished = evaluators.filter((e) => e.status === 'Finished' && counts(workflow, e));
  const status = subjectStatus(workflow, finished);
  if (status === subject.status) return 0;
  const ids = { threeSixtyId: program.id, subjectId: subject.id };
  await personStatusChanged(trx, scope, ids, status, eventTime(now, firstEvent));
  if (status === 'Waiting') {
    await updateSubject(trx, scope, subject.id, { status, updated_at: now.toISOString() });
    return 1;
  }
  // A new link each time the report becomes ready: only its hash is kept, the link goes in the event.
  const { token, hash } = newLinkToken();
  await updateSubject(trx, scope, subject.id, {
    status,
    report_token_hash: hash,
    report_ready_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  await reportReady(
    trx,
    scope,
    ids,
    linkUrl(program.link_base_url, 'report', token),
    eventTime(now, firstEvent + 1),
  );
  return 2;
}

/** Every subject of the program, after its workflow changed. */
export async function recountSubjects(trx: Trx, scope: Scope, program: ThreeSixtyRow, now: Date) {
  for (const subject of await listSubjects(trx, scope, program.id)) {
    await lockSubject(trx, subject.id);
    await recountSubject(trx, scope, program, subject, now);
  }
}

/**
 * The engine's completion hook (handed in by app.ts), called only for a session started for something
 * (`startSession` names the evaluator): the evaluation becomes Finished, with its response, and its
 * subject is counted again. An evaluator removed meanwhile, or another session's: nothing happens.
 */
export async function evaluationFinished(trx: Trx, completion: SessionCompletion): Promise<void> {
  const scope = { organizationId: completion.organizationId };
  const evaluator = await findEvaluatorById(trx, scope, completion.startedFor);
  if (evaluator?.session_id !== completion.sessionId) return;
  await lockSubject(trx, evaluator.subject_id);
  const { now } = completion;
  const changed = await updateEvaluator(
    trx,
    scope,
    evaluator.id,
    { status: 'Finished', response_id: completion.responseId, finished_at: now.toISOString() },
    'Started',
  );
  if (changed === 0) return;
  const change = { sessionId: completion.sessionId, responseId: completion.responseId };
  await evaluationStatusChanged(trx, scope, evaluator, change, eventTime(now, 0));
  const program = await findThreeSixty(trx, scope, evaluator.threesixty_id);
  const subject = program && (await findSubject(trx, scope, program.id, evaluator.subject_id));
  if (program && subject) await recountSubject(trx, scope, program, subject, now, 1);
}

export class StartedElsewhere extends Error {}

/** The subject's name and the relationship, piped into the evaluation survey as embedded data. */
export function embeddedDataFor(subject: SubjectRow, evaluator: Pick<EvaluatorRow, 'relationship'>) {
  return {
    SubjectFirstName: subject.first_name,
    SubjectLastName: subject.last_name,
    SubjectName: `${subject.first_name} ${subject.last_name}`.trim(),
    Relationship: evaluator.relationship,
  };
}

/**
 * Starts the evaluator's engine session, in the transaction that records it Started (with the event):
 * answers the session's cookie key. Throws StartedElsewhere (rolling the new session back) when another
 * request started the evaluation first.
 */
export async function startSession(
  deps: Deps,
  trx: Trx,
  run: RunnableSurvey,
  subject: SubjectRow,
  evaluator: EvaluatorRow,
  visitor: Visitor,
): Promise<SessionKey> {
  const now = deps.clock.now();
  const { key } = await newSession({ ...deps, db: trx }, run, {
    given: embeddedDataFor(subject, evaluator),
    visitor,
    // Its completion finishes this evaluation (evaluationFinished).
    startedFor: evaluator.id,
  });
  const scope = { organizationId: evaluator.organization_id };
  const changed = await updateEvaluator(
    trx,
    scope,
    evaluator.id,
    { status: 'Started', session_id: key.sessionId, started_at: now.toISOString() },
    'Nominated',
  );
  if (changed === 0) throw new StartedElsewhere();
  await evaluationStatusChanged(trx, scope, evaluator, { sessionId: key.sessionId }, now);
  return key;
}
