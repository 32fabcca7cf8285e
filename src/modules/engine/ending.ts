/**
 * The end of a survey as the respondent sees it: the ending's message (inline, or a library message of the
 * survey's organisation in the survey's language, with piped text) or the URL it redirects to once the
 * response is recorded (piped text URL-encoded: `${e://Field/…}`, `${rand://…}`, `${e://Field/ResponseID}`).
 */
import type { Queryable } from '../../deps.js';
import { escapeHtml } from '../../escape-html.js';
import { findMessage, messageText } from '../messages/messages.service.js';
import type { RunnableSurvey } from './engine-survey.js';
import { factsFor, type Walk } from './flow.js';
import { type PipeContext, pipeText } from './piping.js';
import type { SessionState } from './session-state.js';
import type { Ending } from './survey-model.js';

export const DEFAULT_END_MESSAGE =
  'We thank you for your time spent taking this survey. Your response has been recorded.';

export interface EndingShown {
  message: string;
  /** Where the browser goes next (http or https only). */
  redirect?: string;
}

export async function endingShown(
  db: Queryable,
  run: RunnableSurvey,
  ending: Ending,
  walked: Walk,
  state: SessionState,
  at: { now: Date; responseId?: string; language: string },
): Promise<EndingShown> {
  const facts = factsFor(run.engine, state.answers, walked.displayed, walked.embedded, state.seed);
  const context = (encode: (v: string) => string): PipeContext => ({
    facts,
    question: (id) => run.engine.questions.get(id),
    seed: state.seed,
    place: 'end',
    now: at.now,
    ...(at.responseId ? { responseId: at.responseId } : {}),
    encode,
  });
  if (ending.redirect) {
    const url = pipeText(ending.redirect, context(encodeURIComponent));
    if (/^https?:\/\/[^/\s]+/i.test(url)) return { message: DEFAULT_END_MESSAGE, redirect: url };
  }
  let text = ending.message;
  if (!text && ending.messageId) {
    const scope = { organizationId: run.taking.organizationId };
    const message = await findMessage(db, scope, ending.messageId);
    if (message) text = messageText(message, at.language);
  }
  return { message: text ? pipeText(text, context(escapeHtml)) : DEFAULT_END_MESSAGE };
}
