/**
 * `exportResponsesInProgress`: the survey's open engine sessions as export rows. A session keeps the
 * raw answers of the pages taken so far; the engine's own functions (walk, responseAnswers) turn them
 * into values under the survey's value keys, exactly as they will be recorded when the session ends.
 */
import { isoSeconds } from '../../clock.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { loadRunnableSurvey, type RunnableSurvey } from '../engine/engine-survey.js';
import { pageEntries, walk } from '../engine/flow.js';
import { responseAnswers } from '../engine/response.js';
import { parseState } from '../engine/session-state.js';
import { type OpenSessionFilter, type SessionRow, streamOpenSessions } from '../engine/sessions.service.js';
import { labelsOf, withDerivedAnswers } from '../surveys/definition/response-values.js';
import { type SurveyForResponses, surveyForResponses } from '../surveys/survey-responses.service.js';
import type { ExportRow, ExportValue } from './formats/export-layout.js';

interface Survey {
  run: RunnableSurvey;
  keys: SurveyForResponses;
}

/**
 * One session as a row: its partial answers (of the pages taken), Finished 0, Progress the share of
 * the pages taken, Start Date when it began, End Date and Recorded Date its last activity, ResponseId the
 * session id (`FS_`, as the real platform names responses in progress).
 */
export function sessionRow(survey: Survey, session: SessionRow): ExportRow {
  const { run } = survey;
  const state = parseState(session.state);
  const walked = walk(run.engine, state);
  const taken = walked.pages.slice(0, state.position).flatMap(pageEntries);
  const { answers, displayedFields } = responseAnswers(
    run.taking.questions,
    taken,
    state.answers,
    run.taking.questionKeys,
  );
  const start = new Date(session.started_at);
  const last = new Date(session.updated_at);
  const values: Record<string, ExportValue> = {
    startDate: isoSeconds(start),
    endDate: isoSeconds(last),
    status: 0,
    ipAddress: session.ip_address,
    progress: Math.round((100 * state.position) / Math.max(1, walked.pages.length)),
    duration: Math.max(0, Math.round((last.getTime() - start.getTime()) / 1000)),
    finished: 0,
    recordedDate: isoSeconds(last),
    _recordId: session.id,
    distributionChannel: session.link_token_hash ? 'email' : 'anonymous',
    userLanguage: state.language ?? run.language,
    ...withDerivedAnswers(survey.keys, answers),
    ...walked.embedded,
  };
  return {
    responseId: session.id,
    values,
    labels: labelsOf(survey.keys, values),
    displayedFields,
  };
}

/** The open sessions of the survey as rows, in the order they started; undefined when it is gone. */
export async function inProgressRows(
  db: Queryable,
  scope: Scope,
  filter: OpenSessionFilter,
  now: Date,
): Promise<AsyncIterable<ExportRow> | undefined> {
  const run = await loadRunnableSurvey(db, filter.surveyId, now);
  const keys = await surveyForResponses(db, scope, filter.surveyId);
  if (!run || !keys || run.taking.organizationId !== scope.organizationId) return undefined;
  const survey = { run, keys };
  return (async function* () {
    for await (const session of streamOpenSessions(db, scope, filter)) yield sessionRow(survey, session);
  })();
}
