/** An engine screen as the sessions API tells it (SessionSchema). */
import type { Screen } from './engine.service.js';
import type { QuestionView } from './page-view.js';
import type { SessionRow } from './sessions.store.js';
import { apiAnswerOf } from './sessions-api.answers.js';
import type { WireQuestion, WireSession } from './sessions-api.schemas.js';
import type { Choice } from './survey-model.js';
import { uploadLimitsOf } from './uploads.js';

const STATUSES = ['open', 'complete', 'quota'] as const;

function presentQuestion(view: QuestionView): WireQuestion {
  const q = view.question;
  const [type = '', selector = '', subSelector = ''] = q.type.split('/');
  return {
    questionId: q.id,
    questionType: { type, selector, subSelector },
    questionText: view.text,
    choices: Object.fromEntries(
      view.choices.map((c) => [
        c.id,
        { choiceText: c.text, recode: c.recode, textEntry: c.textEntry, exclusive: c.exclusive },
      ]),
    ),
    choiceOrder: view.choices.map((c) => c.id),
    answers: Object.fromEntries(q.answers.map((a) => [a.id, { answerText: a.text }])),
    answerOrder: q.answers.map((a) => a.id),
    columns: q.columns.map((c) => ({ columnId: c.id, answerOrder: c.answers.map((a) => a.id) })),
    validation: { forceResponse: q.forced, requestResponse: q.requested },
    hidden: view.hidden,
    ...(q.groups ? { groups: q.groups } : {}),
    ...(q.constantSum?.total === undefined ? {} : { total: q.constantSum.total }),
    ...(q.kind === 'file'
      ? { upload: { maxBytes: uploadLimitsOf(q).maxBytes, fileTypes: uploadLimitsOf(q).extensions } }
      : {}),
    ...(q.kind === 'hotspot'
      ? { regionStates: q.map?.likeDislike ? ['neither', 'like', 'dislike'] : ['on', 'off'] }
      : {}),
    ...(q.rowAnswers ? { rowScales: rowScalesOf(q.rowAnswers) } : {}),
  };
}

const rowScalesOf = (rows: Record<string, Choice[]>) =>
  Object.fromEntries(
    Object.entries(rows).map(([row, points]) => [
      row,
      {
        answers: Object.fromEntries(points.map((a) => [a.id, { answerText: a.text }])),
        answerOrder: points.map((a) => a.id),
      },
    ]),
  );

export function presentSession(row: SessionRow, screen: Screen): WireSession {
  const status = STATUSES.find((s) => s === row.status) ?? 'open';
  const base = {
    sessionId: row.id,
    surveyId: row.survey_id,
    status,
    responseId: row.response_id,
  };
  if (screen.kind === 'page') {
    const responses: Record<string, unknown> = {};
    for (const view of screen.view.questions) {
      const answer = apiAnswerOf(view.question, view.values);
      if (answer !== undefined) responses[view.question.id] = answer;
    }
    return {
      ...base,
      done: false,
      questions: screen.view.questions.map(presentQuestion),
      responses,
      progress: screen.view.progress ?? null,
      redirect: null,
    };
  }
  const message = screen.kind === 'end' ? (screen.message ?? '') : '';
  const redirect = screen.kind === 'end' ? (screen.redirect ?? null) : null;
  return { ...base, done: message, questions: [], responses: {}, progress: 100, redirect };
}
