/**
 * What the web layer needs to draw one page: the questions shown, their choices in the order shown,
 * what the respondent already answered, the messages, progress and buttons. Plain data, no HTML.
 */
import type { QuestionFields } from './answers.js';
import { factsFor, pipe, visibleChoices, type Walk } from './flow.js';
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
  meta: { title: string; language: string; sessionId: string },
  state: SessionState,
  walked: Walk,
  messages: PageMessages = {},
): PageView | undefined {
  const page = walked.pages[state.position];
  if (!page) return undefined;
  const facts = factsFor(survey, state.answers, walked.displayed, walked.embedded, state.seed);
  const questions = page.questionIds.flatMap((id): QuestionView[] => {
    const question = survey.questions.get(id);
    if (!question) return [];
    return [
      {
        question,
        text: pipe(question.text, facts),
        choices: visibleChoices(survey, question, facts, state.seed),
        values: messages.posted?.[id] ?? state.answers[id] ?? {},
        error: messages.errors?.get(id),
        requested: messages.requested?.includes(id) ?? false,
      },
    ];
  });
  return {
    surveyId: survey.id,
    ...meta,
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
