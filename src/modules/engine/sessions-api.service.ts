/**
 * Survey sessions through the API (`/v3/surveys/{surveyId}/sessions`): the browser's engine with another
 * face. A session is made by newSession, shown by currentScreen and taken by takePage, exactly as the
 * survey pages do; the API's answers become the form fields a page would post (sessions-api.answers.ts),
 * so flow, logic, validation, quotas and the recorded response are the engine's own.
 */

import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { recipientFieldsOf } from '../contacts/contacts.service.js';
import { accessibleSurvey, surveyNotFound } from '../surveys/surveys.service.js';
import type { FormFields } from './answers.js';
import { type StoredUpload, UPLOAD_FIELD } from './answers-input.js';
import { closeSession, currentScreen, type EngineDeps, type Screen, takePage } from './engine.service.js';
import { loadRunnableSurvey, type RunnableSurvey } from './engine-survey.js';
import { findLanguage } from './languages.js';
import { givenFromQuery, newSession, type SessionRow, type Visitor } from './sessions.service.js';
import * as store from './sessions.store.js';
import { formOfAnswers } from './sessions-api.answers.js';
import type { GivenFile } from './sessions-api.media-answers.js';
import { presentSession } from './sessions-api.presenter.js';
import type { CreateSession, UpdateSession, WireSession } from './sessions-api.schemas.js';
import { keptUpload, removeResponseFiles, saveResponseFile, type UploadPlace } from './uploads.js';

/** The survey, when the caller may manage it (404/403 as every survey route), ready to run. */
async function surveyRun(deps: EngineDeps, principal: Principal, surveyId: string): Promise<RunnableSurvey> {
  await accessibleSurvey(deps.db, principal, surveyId, 'see');
  const run = await loadRunnableSurvey(deps.db, surveyId, deps.clock.now());
  if (!run) throw surveyNotFound(surveyId);
  return run;
}

function requireTakingResponses(run: RunnableSurvey): void {
  if (run.availability !== 'open')
    throw ApiError.of(
      'FW_SES_3',
      `Survey ${run.taking.surveyId} is not taking responses (${run.availability}).`,
    );
}

async function sessionOf(
  deps: EngineDeps,
  principal: Principal,
  surveyId: string,
  sessionId: string,
): Promise<SessionRow> {
  const row = await store.findSurveySession(deps.db, principal, surveyId, sessionId);
  if (!row) throw ApiError.of('FW_SES_1', `Survey session ${sessionId} not found.`);
  return row;
}

const closed = (row: SessionRow) =>
  ApiError.of('FW_SES_2', `Survey session ${row.id} has ended (${row.status}); nothing was changed.`);

async function answer(deps: EngineDeps, principal: Principal, row: SessionRow, screen: Screen) {
  const current = await sessionOf(deps, principal, row.survey_id, row.id);
  return presentSession(current, screen);
}

export async function createSession(
  deps: EngineDeps,
  principal: Principal,
  surveyId: string,
  input: CreateSession,
  visitor: Visitor,
): Promise<WireSession> {
  const run = await surveyRun(deps, principal, surveyId);
  requireTakingResponses(run);
  // The session runs in the language asked for, one of the survey's; none asked: the survey's own.
  if (input.language !== undefined && !findLanguage(run.engine.languages, input.language))
    throw ApiError.invalid(
      'language',
      `must be one of the survey's languages (${run.engine.languages.join(', ')})`,
    );
  const recipientId = input.recipient?.contactId ?? input.recipient?.recipientId;
  if (recipientId && !(await recipientFieldsOf(deps.db, principal, recipientId)))
    throw ApiError.invalid('recipient.contactId', 'is not a contact of this organization');
  const embedded = Object.fromEntries(
    Object.entries(input.embeddedData ?? {}).map(([k, v]) => [k, String(v)]),
  );
  // Embedded data as a link's URL parameters give it: only the fields the survey's flow declares.
  const { row } = await newSession(deps, run, {
    given: givenFromQuery(run, embedded),
    visitor,
    language: input.language,
    ...(recipientId ? { recipientId } : {}),
  });
  return answer(deps, principal, row, await currentScreen(deps, run, row));
}

export async function getSession(
  deps: EngineDeps,
  principal: Principal,
  surveyId: string,
  sessionId: string,
): Promise<WireSession> {
  const run = await surveyRun(deps, principal, surveyId);
  const row = await sessionOf(deps, principal, surveyId, sessionId);
  return presentSession(row, await currentScreen(deps, run, row));
}

/** The page's answers, taken as the page's form (advance), then the session recorded as it is (close). */
export async function updateSession(
  deps: EngineDeps,
  principal: Principal,
  ids: { surveyId: string; sessionId: string },
  input: UpdateSession,
  visitor: Visitor,
): Promise<WireSession> {
  const run = await surveyRun(deps, principal, ids.surveyId);
  let row = await sessionOf(deps, principal, ids.surveyId, ids.sessionId);
  if (row.status !== 'open') throw closed(row);
  requireTakingResponses(run);
  if (input.responses && !input.advance && !input.close)
    throw ApiError.invalid('advance', 'must be true to take responses (or close them with close: true)');
  let screen = await currentScreen(deps, run, row);
  if (screen.kind === 'page' && (input.advance || (input.close && input.responses))) {
    const view = screen.view;
    const { form, files } = formOfAnswers(
      view.questions.map((q) => q.question),
      input.responses ?? {},
      {
        _fw_page: [view.pageKey],
        // An API client sees the whole page at once: requested questions left empty are left, as a
        // respondent who chose "continue without answering", and in-page follow-ups count as shown.
        _fw_action: ['continue'],
        _fw_revealed: view.questions.filter((q) => q.hidden).map((q) => q.question.id),
      },
    );
    const place = { organizationId: run.taking.organizationId, sessionId: row.id };
    const stored = await storeGivenFiles(deps, place, files, form);
    try {
      screen = await takePage(deps, run, row, form, visitor);
    } catch (error) {
      await removeResponseFiles(deps, place, stored);
      throw error;
    }
    if (screen.kind === 'page' && screen.status === 422) {
      // The page was refused: the files stored for it are named by nothing.
      await removeResponseFiles(deps, place, stored);
      throw pageErrors(screen);
    }
    row = await sessionOf(deps, principal, ids.surveyId, ids.sessionId);
    if (screen.kind === 'redirect') screen = await currentScreen(deps, run, row);
  }
  if (input.close && row.status === 'open') screen = await closeSession(deps, run, row, visitor);
  return answer(deps, principal, row, screen);
}

/**
 * Stores the files an API answer gives (checked already) and hands each to the engine as the stored
 * upload (`_fw_upload_<QID>`, as page-uploads.ts does for a page); a file to keep must be one of the
 * session's. Answers the ids stored, for removal if the page is refused.
 */
async function storeGivenFiles(
  deps: EngineDeps,
  place: UploadPlace,
  files: GivenFile[],
  form: FormFields,
): Promise<string[]> {
  const stored: string[] = [];
  try {
    for (const file of files) {
      let upload: StoredUpload | undefined;
      if (file.kind === 'keep') {
        upload = await keptUpload(deps, place, {
          id: file.fileId,
          name: file.name,
          size: 0,
          type: file.type,
        });
        if (!upload)
          throw ApiError.invalid(`responses.${file.questionId}.fileId`, 'is not a file of this session');
      } else {
        const { id, size } = await saveResponseFile(deps, place, [file.bytes], file.bytes.length);
        stored.push(id);
        upload = { id, name: file.name, size, type: file.type };
      }
      form[`${UPLOAD_FIELD}${file.questionId}`] = [JSON.stringify(upload)];
    }
  } catch (error) {
    await removeResponseFiles(deps, place, stored);
    throw error;
  }
  return stored;
}

/** The page's messages as one 400 naming each question (`responses.QID1: Please answer this question.`). */
function pageErrors(screen: Extract<Screen, { kind: 'page' }>): ApiError {
  const problems = screen.view.questions.flatMap((q) =>
    q.error ? [`responses.${q.question.id}: ${q.error}`] : [],
  );
  return ApiError.of('FW_VAL_1', `Invalid request: ${problems.join(' ')}`);
}

export async function deleteSession(
  deps: EngineDeps,
  principal: Principal,
  surveyId: string,
  sessionId: string,
): Promise<void> {
  await surveyRun(deps, principal, surveyId);
  const row = await sessionOf(deps, principal, surveyId, sessionId);
  if (row.status !== 'open' || !(await store.deleteOpenSession(deps.db, principal, sessionId)))
    throw closed(row);
}
