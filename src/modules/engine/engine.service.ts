/**
 * Taking a survey: open a link, show the current page, take a page's answers. Every step loads the
 * session, walks the flow again with its answers (flow.ts) and saves the session, so a reload continues
 * where the respondent was. A completed session becomes a response through the responses module's
 * recordCompletedResponse, in the same transaction as the session's last save.
 */
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Deps } from '../../deps.js';
import { activeSubscriptions } from '../../events/record-event.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Database } from '../../tables.js';
import { recipientFieldsOf } from '../contacts/contacts.service.js';
import { cutResponseEventContext, recordCompletedResponse } from '../responses/record-response.js';
import type { PageParts } from '../surveys/compiled-survey.js';
import { TERMINATE_FLAG } from '../surveys/definition/qsf.js';
import type { AnswerValue } from '../surveys/definition/response-values.js';
import { fullQuotasMatching } from '../surveys/survey-taking.service.js';
import { type FormFields, readPage } from './answers.js';
import { DEFAULT_END_MESSAGE, endingShown } from './ending.js';
import { type RunnableSurvey, runForSession } from './engine-survey.js';
import { countPresentations } from './even-presentation.js';
import { type Walk, walk } from './flow.js';
import { inPageHolds, revealedOf } from './in-page.js';
import { loopAnswerKey } from './loops.js';
import { metaAnswers } from './meta-info.js';
import { type PageMessages, type PageView, pageView } from './page-view.js';
import { displayOrders, responseAnswers } from './response.js';
import { parseState, type SessionState, serializeState } from './session-state.js';
import type { Visitor } from './sessions.service.js';
import type { SessionRow } from './sessions.store.js';
import * as store from './sessions.store.js';
import { timingAnswers } from './timing.js';

/** A session recorded as a response, as the engine tells it to a completion hook. */
export interface SessionCompletion {
  organizationId: string;
  surveyId: string;
  sessionId: string;
  /** What the session was started for (`engine_sessions.started_for`): a 360 evaluator's id. */
  startedFor: string;
  responseId: string;
  now: Date;
}

/**
 * Runs in the transaction that records a session's response (so what it writes commits with the response,
 * or not at all), for a session started for something (`started_for`) only. app.ts hands one in: the 360
 * module's, which finishes evaluations; the engine imports no module of that kind.
 */
export type CompletionHook = (trx: Transaction<Database>, completion: SessionCompletion) => Promise<void>;

export interface EngineDeps extends Deps {
  onSessionCompleted?: CompletionHook;
}

export type EndReason = 'complete' | 'quota' | 'already';

/**
 * What to show. A page or an end carries `parts`: what the pages draw from the definition version the
 * session runs (compiled-survey.ts; an older published one for a session started before a publication).
 */
export type Screen =
  | { kind: 'page'; view: PageView; status: number; parts: PageParts }
  | {
      kind: 'end';
      reason: EndReason;
      message?: string;
      title: string;
      redirect?: string;
      language?: string;
      parts: PageParts;
    }
  /** Go to the survey's link again (after a page was taken: the browser then GETs the next page). */
  | { kind: 'redirect' };

export { DEFAULT_END_MESSAGE } from './ending.js';
export const QUOTA_END_MESSAGE =
  'Thank you for your interest. We already have all the responses we need from people like you, so the survey ends here.';

const meta = (run: RunnableSurvey, sessionId: string, now = new Date()) => ({
  title: run.taking.name,
  language: run.language,
  sessionId,
  now,
});

/** The page a session is on; a session past its last page completes (a flow with no page left). */
export async function currentScreen(
  deps: EngineDeps,
  current: RunnableSurvey,
  session: SessionRow,
): Promise<Screen> {
  const run = await runForSession(deps.db, current, session, deps.clock.now());
  if (session.status !== 'open') return endScreen(run, session.status === 'quota' ? 'quota' : 'already');
  const state = parseState(session.state);
  const walked = walk(run.engine, state);
  const view = pageView(run.engine, meta(run, session.id, deps.clock.now()), state, walked);
  if (view) return pageScreen(run, view, 200);
  return complete(deps, run, session, state);
}

/** Takes one page's form: back, a page shown again with messages, the next page, or the end. */
export async function takePage(
  deps: EngineDeps,
  current: RunnableSurvey,
  session: SessionRow,
  form: FormFields,
  visitor: Visitor,
): Promise<Screen> {
  const run = await runForSession(deps.db, current, session, deps.clock.now());
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

  const view = pageView(run.engine, meta(run, session.id, now), state, walked);
  // As the page showed them: carried forward and shuffled scale points (flow.ts answersShown).
  const asShown = new Map(view?.questions.map((q) => [q.question.id, q.question]));
  const onPage = page.questionIds.flatMap((id) => asShown.get(id) ?? run.engine.questions.get(id) ?? []);
  const shown = new Map(view?.questions.map((q) => [q.question.id, q.choices]));
  const choicesOf = (q: { id: string }) => shown.get(q.id) ?? [];
  // In-page display logic: the follow-ups whose condition holds with this page's answers.
  const fixed = readPage(
    onPage.filter((q) => !q.inPage),
    form,
    choicesOf,
    { continueWithoutRequested: true },
  );
  const trial = { ...state, answers: { ...state.answers, ...fixed.answers } };
  const holds = onPage.filter(
    (q) => q.inPage && inPageHolds(run.engine, q, trial.answers, walked, page, state.seed),
  );
  if (holds.some((q) => page.hidden.includes(q.id) && !revealedOf(form).includes(q.id))) {
    // No script revealed them: the page again, with the answers given and the follow-ups shown.
    const again = pageView(run.engine, meta(run, session.id, now), trial, walk(run.engine, trial), {
      posted: fixed.answers,
    });
    if (again) return pageScreen(run, again, 200);
  }
  const questions = onPage.filter((q) => !q.inPage || holds.includes(q));
  const reading = readPage(questions, form, choicesOf, {
    continueWithoutRequested: form._fw_action?.[0] === 'continue',
  });
  if (reading.errors.size > 0 || reading.requested.length > 0) {
    const messages: PageMessages = {
      errors: reading.errors,
      requested: reading.requested,
      posted: reading.answers,
    };
    const again = pageView(run.engine, meta(run, session.id, now), trial, walk(run.engine, trial), messages);
    if (again) return pageScreen(run, again, reading.errors.size > 0 ? 422 : 200);
  }

  // A loop's answers are kept per loop (`<loop>_<QID>`).
  const taken = {
    ...reading.answers,
    ...timingAnswers(questions, form, state, now),
    ...metaAnswers(questions, form, visitor.userAgent),
  };
  for (const [id, fields] of Object.entries(taken))
    state.answers[page.loop ? loopAnswerKey(page.loop.id, id) : id] = fields;
  state.position += 1;
  const next = walk(run.engine, state);
  const full = await fullQuotasMatching(deps.db, run.taking, () => ({
    ...responseAnswers(run.taking.questions, next.displayed, state.answers, run.taking.questionKeys).answers,
    ...next.embedded,
  }));
  if (full.length > 0) {
    await save(deps, session, state, now, { status: 'quota', finished_at: now.toISOString() });
    return endScreen(run, 'quota');
  }
  if (state.position >= next.pages.length) return complete(deps, run, session, state, visitor);
  await save(deps, session, moveTo(state, next, now), now);
  return { kind: 'redirect' };
}

/**
 * Records an open session as it is now, wherever it is in the flow (the sessions API's `close: true`):
 * the answers so far become the response, as on the last page.
 */
export async function closeSession(
  deps: EngineDeps,
  current: RunnableSurvey,
  session: SessionRow,
  visitor: Visitor,
): Promise<Screen> {
  const run = await runForSession(deps.db, current, session, deps.clock.now());
  if (session.status !== 'open') return endScreen(run, session.status === 'quota' ? 'quota' : 'already');
  return complete(deps, run, session, parseState(session.state), visitor);
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
  deps: EngineDeps,
  run: RunnableSurvey,
  session: SessionRow,
  state: SessionState,
  visitor?: Visitor,
): Promise<Screen> {
  const walked = walk(run.engine, { ...state, now: deps.clock.now() });
  const shown = walked.shown;
  const { answers, displayedFields } = responseAnswers(
    run.taking.questions,
    shown,
    state.answers,
    run.taking.questionKeys,
  );
  const now = deps.clock.now();
  let responseId: string;
  try {
    responseId = await recordAndClose(deps, run, session, state, {
      answers,
      displayedFields,
      walked,
      now,
      visitor,
    });
  } catch (error) {
    // The same last page posted twice at once: the first one recorded the response.
    if (error instanceof ApiError && error.code === 'FW_RSP_2') return endScreen(run, 'already');
    throw error;
  }
  // The message or the redirect comes after the response is recorded (it may pipe the response id).
  const language = meta(run, session.id).language;
  const end = await endingShown(deps.db, run, walked.ending, walked, state, { now, responseId, language });
  return { ...endScreen(run, 'complete', end.message), ...(end.redirect ? { redirect: end.redirect } : {}) };
}

interface Completion {
  answers: Record<string, AnswerValue>;
  displayedFields: string[];
  walked: Walk;
  now: Date;
  visitor?: Visitor;
}

async function recordAndClose(
  deps: EngineDeps,
  run: RunnableSurvey,
  session: SessionRow,
  state: SessionState,
  { answers, displayedFields, walked, now, visitor }: Completion,
): Promise<string> {
  const scope = { organizationId: session.organization_id };
  const responseId = newId('R');
  // A screen-out is recorded as screened: not finished, flagged, and no completion event (nor hook).
  const screened = walked.ending.screened;
  const anonymized = run.engine.anonymized;
  // The subscriptions of a completion's event are read beside the transaction, not in it: on PostgreSQL
  // one round trip fewer between its begin and its commit (decision 0012). The recording awaits the read;
  // the catch only keeps a failure from going unhandled when the transaction fails first.
  const subscriptions = screened ? undefined : activeSubscriptions(deps.db, scope);
  subscriptions?.catch(() => {});
  await deps.db.transaction().execute(async (trx) => {
    // The session is closed by the recording's own round trip, with its last writes (decision 0021), so
    // the owner's counts, which completions of the owner's surveys share, stay locked only until the commit.
    const closing = store.sessionUpdate(trx, scope, session.id, {
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
    // Taken on the publication the session ran (issue 15): its labels, and the version it names.
    await recordCompletedResponse(
      trx,
      scope,
      {
        responseId,
        surveyId: run.taking.surveyId,
        answers,
        // Spec 6 and 8: ResponseEventContext is at most 50 characters; the engine cuts a longer value.
        embeddedData: cutResponseEventContext(
          screened ? { ...walked.embedded, [TERMINATE_FLAG]: 'Screened' } : walked.embedded,
        ),
        ...(screened ? { finished: false, emitEvent: false } : {}),
        startDate: new Date(session.started_at),
        endDate: now,
        now,
        // Anonymized responses keep no IP address (nor location) anywhere.
        ipAddress: anonymized ? null : (session.ip_address ?? visitor?.ip ?? null),
        userAgent: session.user_agent ?? visitor?.userAgent ?? null,
        userLanguage: meta(run, session.id).language,
        recipientId: session.recipient_id,
        distributionId: session.distribution_id,
        distributionChannel: session.link_token_hash ? 'email' : 'anonymous',
        sessionId: session.id,
        displayedFields,
        // The presented orders (displayOrder data) beside the contact's fields of an individual link.
        extraMetadata: { ...displayOrders(run.engine, walked, state.answers, state.seed), ...recipient },
      },
      run.taking.definitionVersion,
      { alongside: [closing], subscriptions },
    );
    await countPresentations(trx, scope, run.engine, run.taking.surveyId, walked);
    const completion = {
      organizationId: scope.organizationId,
      surveyId: run.taking.surveyId,
      sessionId: session.id,
    };
    const startedFor = session.started_for;
    if (!screened && startedFor !== null)
      await deps.onSessionCompleted?.(trx, { ...completion, startedFor, responseId, now });
  });
  return responseId;
}

export function endScreen(run: RunnableSurvey, reason: EndReason, message?: string): Screen {
  const text =
    reason === 'quota'
      ? QUOTA_END_MESSAGE
      : reason === 'already'
        ? 'You have already taken this survey. Your response has been recorded.'
        : (message ?? DEFAULT_END_MESSAGE);
  const { name, pages } = run.taking;
  return { kind: 'end', reason, message: text, title: name, language: run.language, parts: pages };
}

const pageScreen = (run: RunnableSurvey, view: PageView, status: number): Screen => ({
  kind: 'page',
  view,
  status,
  parts: run.taking.pages,
});

/**
 * A new session's state: a fresh seed, the embedded data the link gives, the items of "evenly present"
 * elements it is given (even-presentation.ts), the first page.
 */
export function initialState(
  run: RunnableSurvey,
  given: Record<string, string>,
  now: Date,
  evenly?: Record<string, string[]>,
): SessionState {
  const state: SessionState = {
    seed: randomInt(0, 2 ** 31 - 1),
    given,
    answers: {},
    position: 0,
    shownKey: '',
    shownAt: now.toISOString(),
    ...(evenly ? { evenly } : {}),
  };
  return moveTo(state, walk(run.engine, state), now);
}
