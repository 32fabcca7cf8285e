/**
 * What the web layer needs to draw one page: the questions shown, their choices in the order shown,
 * what the respondent already answered, the messages, progress and buttons. Plain data, no HTML.
 */

import { escapeHtml } from '../../escape-html.js';
import type { QuestionFields } from './answers.js';
import { answersShown, pageFacts, visibleChoices, type Walk } from './flow.js';
import { type ClientCondition, clientCondition } from './in-page.js';
import { loopAnswerKey } from './loops.js';
import { type PipeContext, pipeText } from './piping.js';
import type { SessionState } from './session-state.js';
import type { Choice, EngineSurvey, Question } from './survey-model.js';

export interface QuestionView {
  question: Question;
  /** The question text with piped embedded data (markup as the survey author wrote it). */
  text: string;
  choices: Choice[];
  values: QuestionFields;
  error?: string;
  /** A requested response left empty: the page asks once before going on. */
  requested: boolean;
  /** An in-page question whose condition does not hold: on the page, hidden. */
  hidden: boolean;
  /** When the page's script shows it (in-page display logic it can read). */
  showWhen?: ClientCondition;
}

export interface PageView {
  surveyId: string;
  title: string;
  language: string;
  sessionId: string;
  pageKey: string;
  questions: QuestionView[];
  /** Percent done, when the survey shows a progress bar. */
  progress?: number;
  canGoBack: boolean;
  nextLabel: string;
  backLabel: string;
  askRequested: boolean;
}

export interface PageMessages {
  errors?: Map<string, string>;
  requested?: string[];
  /** Answers as posted (kept on the page when it is shown again with a message). */
  posted?: Record<string, QuestionFields>;
}

export function pageView(
  survey: EngineSurvey,
  meta: { title: string; language: string; sessionId: string; now?: Date },
  state: SessionState,
  walked: Walk,
  messages: PageMessages = {},
): PageView | undefined {
  const page = walked.pages[state.position];
  if (!page) return undefined;
  // Piped text shows the embedded data as set when the flow reached this page, not as set later; in a
  // loop, this loop's answers.
  const facts = pageFacts(survey, state.answers, walked, page, state.seed);
  const { now, ...pageMeta } = meta;
  const context = (place: string): PipeContext => ({
    facts,
    question: (qid) => survey.questions.get(qid),
    seed: state.seed,
    place,
    now: now ?? new Date(),
    encode: escapeHtml,
    ...(page.loop ? { loop: page.loop } : {}),
  });
  const answerKey = (id: string) => (page.loop ? loopAnswerKey(page.loop.id, id) : id);
  const questions = page.questionIds.flatMap((id): QuestionView[] => {
    const question = survey.questions.get(id);
    if (!question) return [];
    const piped = context(`${page.key}/${id}`);
    return [
      {
        question:
          question.randomizeAnswers || question.carryAnswers
            ? { ...question, answers: answersShown(survey, question, facts, state.seed) }
            : question,
        text: pipeText(question.text, piped),
        choices: visibleChoices(survey, question, facts, state.seed).map((c) =>
          c.text.includes('${') ? { ...c, text: pipeText(c.text, context(`${page.key}/${id}/${c.id}`)) } : c,
        ),
        // Not answered yet: the question's default answers, piped (embedded data, URL parameters).
        values: messages.posted?.[id] ?? state.answers[answerKey(id)] ?? defaultsOf(question, piped),
        error: messages.errors?.get(id),
        requested: messages.requested?.includes(id) ?? false,
        hidden: page.hidden.includes(id),
        ...(question.inPage ? withCondition(clientCondition(question, page.questionIds)) : {}),
      },
    ];
  });
  return {
    surveyId: survey.id,
    ...pageMeta,
    pageKey: page.key,
    questions,
    ...(survey.progressBar
      ? { progress: Math.round((100 * state.position) / Math.max(1, walked.pages.length)) }
      : {}),
    canGoBack: survey.backButton && state.position > 0,
    nextLabel: survey.nextLabel,
    backLabel: survey.backLabel,
    askRequested: (messages.requested?.length ?? 0) > 0,
  };
}

function defaultsOf(question: Question, context: PipeContext): QuestionFields {
  if (!question.defaults) return {};
  const plain = { ...context, encode: undefined };
  return Object.fromEntries(
    Object.entries(question.defaults).map(([name, values]) => [name, values.map((v) => pipeText(v, plain))]),
  );
}

const withCondition = (condition: ClientCondition | undefined) => (condition ? { showWhen: condition } : {});
