/**
 * The seven `threesixty.*` events of spec part 6, with exactly its attributes (BrandID is added when the
 * message is built). Each is recorded through the outbox in the caller's transaction.
 */
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { recordEvent } from '../../events/record-event.js';
import type { EvaluatorRow } from './evaluators.store.js';
import type { Workflow } from './workflow.js';

type Trx = Queryable;

export function programCreated(
  trx: Trx,
  scope: Scope,
  p: { id: string; surveyId: string; workflow: Workflow },
  now: Date,
) {
  return recordEvent(
    trx,
    scope,
    'threesixty.created',
    { ThreeSixtyID: p.id, SurveyID: p.surveyId, Workflow: p.workflow },
    now,
  );
}

export function programStatusChanged(trx: Trx, scope: Scope, id: string, status: string, now: Date) {
  return recordEvent(trx, scope, 'threesixty.statusChanged', { ThreeSixtyID: id, Status: status }, now);
}

export function nominationCreated(trx: Trx, scope: Scope, e: EvaluatorRow, evaluationUrl: string, now: Date) {
  return recordEvent(
    trx,
    scope,
    'threesixty.nominationCreated',
    {
      ThreeSixtyID: e.threesixty_id,
      SubjectID: e.subject_id,
      EvaluatorID: e.id,
      EvaluatorEmail: e.email,
      Relationship: e.relationship,
      EvaluationURL: evaluationUrl,
    },
    now,
  );
}

export function nominationRemoved(trx: Trx, scope: Scope, e: EvaluatorRow, now: Date) {
  return recordEvent(
    trx,
    scope,
    'threesixty.nominationRemoved',
    {
      ThreeSixtyID: e.threesixty_id,
      SubjectID: e.subject_id,
      EvaluatorID: e.id,
      Relationship: e.relationship,
    },
    now,
  );
}

/** Started carries the session; Finished adds ResponseID and `Unsolicitied` (spelled as spec 6 spells it). */
export function evaluationStatusChanged(
  trx: Trx,
  scope: Scope,
  e: Pick<EvaluatorRow, 'id' | 'threesixty_id' | 'subject_id' | 'relationship' | 'nominated'>,
  change: { sessionId: string; responseId?: string },
  now: Date,
) {
  const payload: Record<string, unknown> = {
    ThreeSixtyID: e.threesixty_id,
    SubjectID: e.subject_id,
    EvaluatorID: e.id,
    Status: change.responseId ? 'Finished' : 'Started',
    SessionID: change.sessionId,
    Relationship: e.relationship,
  };
  if (change.responseId) {
    payload.ResponseID = change.responseId;
    payload.Unsolicitied = e.nominated === 0;
  }
  return recordEvent(trx, scope, 'threesixty.evaluationStatusChanged', payload, now);
}

export function personStatusChanged(
  trx: Trx,
  scope: Scope,
  s: { threeSixtyId: string; subjectId: string },
  status: string,
  now: Date,
) {
  return recordEvent(
    trx,
    scope,
    'threesixty.person.statusChanged',
    { ThreeSixtyID: s.threeSixtyId, SubjectID: s.subjectId, Status: status },
    now,
  );
}

export function reportReady(
  trx: Trx,
  scope: Scope,
  s: { threeSixtyId: string; subjectId: string },
  reportUrl: string,
  now: Date,
) {
  return recordEvent(
    trx,
    scope,
    'threesixty.reportReady',
    { ThreeSixtyID: s.threeSixtyId, SubjectID: s.subjectId, ReportURL: reportUrl },
    now,
  );
}
