/**
 * Taking a survey: open a link, show the current page, take a page's answers. Every step loads the
 * session, walks the flow again with its answers (flow.ts) and saves the session, so a reload continues
 * where the respondent was. A completed session becomes a response through the responses module's
 * recordCompletedResponse, in the same transaction as the session's last save.
 */
import { randomInt } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { recipientFieldsOf } from '../contacts/contacts.service.js';
import { cutResponseEventContext, recordCompletedResponse } from '../responses/record-response.js';
import type { AnswerValue } from '../surveys/definition/response-values.js';
import { fullQuotasMatching } from '../surveys/survey-taking.service.js';
import { type FormFields, readPage } from './answers.js';
import type { RunnableSurvey } from './engine-survey.js';
import { type Walk, walk } from './flow.js';
import { type PageMessages, type PageView, pageView } from './page-view.js';
import { responseAnswers } from './response.js';
import { parseState, type SessionState, serializeState } from './session-state.js';
import type { Visitor } from './sessions.service.js';
import type { SessionRow } from './sessions.store.js';
import * as store from './sessions.store.js';

export type EndReason = 'complete' | 'quota' | 'already';

export type Screen =
  | { kind: 'page'; view: PageView; status: number }
  | { kind: 'end'; reason: EndReason; message?: string; title: string }
  /** Go to the survey's link again (after a page was taken: the browser then GETs the next page). */
  | { kind: 'redirect' };

export const DEFAULT_END_MESSAGE =
  'We thank you for your time spent taking this survey. Your response has been recorded.';
export const QUOTA_END_MESSAGE =
  'Thank you for your interest. We already have all the responses we need from people like you, so the survey ends here.';

const meta = (run: RunnableSurvey, sessionId: string) => ({
  title: run.taking.name,
  language: run.taking.definition.SurveyEntry.SurveyLanguage || 'EN',
  sessionId,
});

/** The page a session is on; a session past its last page completes (a flow with no page left). */
export async function currentScreen(deps: Deps, run: RunnableSurvey, session: SessionRow): Promise<Screen> {
  if (session.status !== 'open') return endScreen(run, session.status === 'quota' ? 'quota' : 'already');
  const state = parseState(session.state);
  const walked = walk(run.engine, state);
  const view = pageView(run.engine, meta(run, session.id), state, walked);
  if (view) return { kind: 'page', view, status: 200 };
  return complete(deps, run, session, state);
}

/** Takes one page's form: back, a page shown again with messages, the next page, or the end. */
export async function takePage(
  deps: Deps,
  run: RunnableSurvey,
  session: SessionRow,
  form: FormFields,
  visitor: Visitor,
): Promise<Screen> {
  if (session.status !== 'open') return endScreen(run, session.status === 'quota' ? 'quota' : 'already');
  const state = parseState(session.state);
  const walked = walk(run.engine, state);
  const page = walked.pages[state.position];
  // A page submitted twice, or from a stale tab, lands on the page the session is on.
  if (!page || form._fw_page?.[0] !== page.key) return { kind: 'redirect' };
  const now = deps.clock.now();

  if (form._fw_action?.[0] === 'back') {
    if (run.engine.backButton && state.position > 0) {
      state.position -= 1;
      await save(deps, session, moveTo(state, walk(run.engine, state), now), now);
    }
    return { kind: 'redirect' };
  }

  const questions = page.questionIds.flatMap((id) => run.engine.questions.get(id) ?? []);
  const view = pageView(run.engine, meta(run, session.id), state, walked);
  const shown = new Map(view?.questions.map((q) => [q.question.id, q.choices]));
  const reading = readPage(questions, form, (q) => shown.get(q.id) ?? [], {
    continueWithoutRequested: form._fw_action?.[0] === 'continue',
  });
  if (reading.errors.size > 0 || reading.requested.length > 0) {
    const messages: PageMessages = {
      errors: reading.errors,
      requested: reading.requested,
      posted: reading.answers,
    };
    const again = pageView(run.engine, meta(run, session.id), state, walked, messages);
    if (again) return { kind: 'page', view: again, status: reading.errors.size > 0 ? 422 : 200 };
  }

  Object.assign(state.answers, reading.answers, timingAnswers(questions, form, state, now));
  state.position += 1;
  const next = walk(run.engine, state);
  const { answers } = responseAnswers(run.taking.questions, next.displayed, state.answers);
  const full = await fullQuotasMatching(deps.db, run.taking, { ...answers, ...next.embedded });
  if (full.length > 0) {
    await save(deps, session, state, now, { status: 'quota', finished_at: now.toISOString() });
    return endScreen(run, 'quota');
  }
  if (state.position >= next.pages.length) return complete(deps, run, session, state, visitor);
  await save(deps, session, moveTo(state, next, now), now);
  return { kind: 'redirect' };
}

/** The page the state is on now is shown from `now` (timing questions count from here). */
function moveTo(state: SessionState, walked: ReturnType<typeof walk>, now: Date): SessionState {
  const key = walked.pages[state.position]?.key ?? '';
  if (key !== state.shownKey) {
    state.shownKey = key;
    state.shownAt = now.toISOString();
  }
  return state;
}

/** Timing questions: seconds to the first and last click and to the submit, and the click count. */
function timingAnswers(
  questions: { id: string; kind: string }[],
  form: FormFields,
  state: SessionState,
  now: Date,
): Record<string, Record<string, string[]>> {
  const seconds = (name: string) => {
    const value = Number(form[name]?.[0] ?? '0');
    return String(Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) / 1000 : 0);
  };
  const submit = Math.max(0, (now.getTime() - new Date(state.shownAt).getTime()) / 1000);
  const out: Record<string, Record<string, string[]>> = {};
  for (const q of questions.filter((x) => x.kind === 'timing')) {
    out[q.id] = {
      [`${q.id}_FIRST_CLICK`]: [seconds('_fw_first_click')],
      [`${q.id}_LAST_CLICK`]: [seconds('_fw_last_click')],
      [`${q.id}_PAGE_SUBMIT`]: [String(Math.round(submit * 1000) / 1000)],
      [`${q.id}_CLICK_COUNT`]: [String(Math.trunc(Number(seconds('_fw_click_count'))))],
    };
  }
  return out;
}

async function save(
  deps: Deps,
  session: SessionRow,
  state: SessionState,
  now: Date,
  changes: { status?: string; finished_at?: string } = {},
): Promise<void> {
  await store.updateSession(deps.db, { organizationId: session.organization_id }, session.id, {
    state: serializeState(state),
    updated_at: now.toISOString(),
    ...changes,
  });
}

/** Records the response and closes the session in one transaction; the end-of-survey message follows. */
async function complete(
  deps: Deps,
  run: RunnableSurvey,
  session: SessionRow,
  state: SessionState,
  visitor?: Visitor,
): Promise<Screen> {
  const walked = walk(run.engine, state);
  const shown = walked.pages.flatMap((p) => p.questionIds);
  const { answers, displayedFields } = responseAnswers(run.taking.questions, shown, state.answers);
  const now = deps.clock.now();
  try {
    await recordAndClose(deps, run, session, state, { answers, displayedFields, walked, now, visitor });
  } catch (error) {
    // The same last page posted twice at once: the first one recorded the response.
    if (error instanceof ApiError && error.code === 'FW_RSP_2') return endScreen(run, 'already');
    throw error;
  }
  return endScreen(run, 'complete', walked.endMessage);
}

interface Completion {
  answers: Record<string, AnswerValue>;
  displayedFields: string[];
  walked: Walk;
  now: Date;
  visitor?: Visitor;
}

async function recordAndClose(
  deps: Deps,
  run: RunnableSurvey,
  session: SessionRow,
  state: SessionState,
  { answers, displayedFields, walked, now, visitor }: Completion,
): Promise<void> {
  const scope = { organizationId: session.organization_id };
  const responseId = newId('R');
  await deps.db.transaction().execute(async (trx) => {
    // The session first: the recording writes the owner's counts last, so that row, which completions of
    // the owner's surveys share, stays locked only until the commit (decision 0012).
    await store.updateSession(trx, scope, session.id, {
      state: serializeState(state),
      status: 'complete',
      response_id: responseId,
      updated_at: now.toISOString(),
      finished_at: now.toISOString(),
    });
    // An individual link's response carries its contact's name, e-mail and reference (issue 12).
    const recipient = session.recipient_id
      ? await recipientFieldsOf(trx, scope, session.recipient_id)
      : undefined;
    await recordCompletedResponse(trx, scope, {
      responseId,
      surveyId: run.taking.surveyId,
      answers,
      // Spec 6 and 8: ResponseEventContext is at most 50 characters; the engine cuts a longer value.
      embeddedData: cutResponseEventContext(walked.embedded),
      startDate: new Date(session.started_at),
      endDate: now,
      now,
      ipAddress: session.ip_address ?? visitor?.ip ?? null,
      userAgent: session.user_agent ?? visitor?.userAgent ?? null,
      userLanguage: meta(run, session.id).language,
      recipientId: session.recipient_id,
      distributionId: session.distribution_id,
      distributionChannel: session.link_token_hash ? 'email' : 'anonymous',
      sessionId: session.id,
      displayedFields,
      ...(recipient ? { extraMetadata: recipient } : {}),
    });
  });
}

export function endScreen(run: RunnableSurvey, reason: EndReason, message?: string): Screen {
  const text =
    reason === 'quota'
      ? QUOTA_END_MESSAGE
      : reason === 'already'
        ? 'You have already taken this survey. Your response has been recorded.'
        : (message ?? run.engine.endMessage ?? DEFAULT_END_MESSAGE);
  return { kind: 'end', reason, message: text, title: run.taking.name };
}

/** A new session's state: a fresh seed, the embedded data the link gives, the first page. */
export function initialState(run: RunnableSurvey, given: Record<string, string>, now: Date): SessionState {
  const state: SessionState = {
    seed: randomInt(0, 2 ** 31 - 1),
    given,
    answers: {},
    position: 0,
    shownKey: '',
    shownAt: now.toISOString(),
  };
  return moveTo(state, walk(run.engine, state), now);
}
