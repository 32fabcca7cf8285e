/**
 * From a session's answers (raw form fields per question) to the answers recordCompletedResponse takes:
 * one value per value key of the survey definition (surveys/definition/value-keys.ts), for the questions
 * the respondent was shown.
 */
import { type QsfQuestion, recodeOf } from '../surveys/definition/qsf.js';
import type { AnswerValue } from '../surveys/definition/response-values.js';
import { type ValueKey, valueKeysOf } from '../surveys/definition/value-keys.js';
import type { Answers } from './flow.js';

export interface EngineAnswers {
  answers: Record<string, AnswerValue>;
  /** Every value key of every question shown. */
  displayedFields: string[];
}

const numeric = (value: string): AnswerValue => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);

export function responseAnswers(
  questions: ReadonlyMap<string, QsfQuestion>,
  shown: Iterable<string>,
  answers: Answers,
): EngineAnswers {
  const out: Record<string, AnswerValue> = {};
  const displayedFields: string[] = [];
  for (const questionId of shown) {
    const question = questions.get(questionId);
    if (!question) continue;
    const fields = answers[questionId] ?? {};
    for (const key of valueKeysOf(question)) {
      displayedFields.push(key.key);
      const value = answerFor(question, key, fields);
      if (value !== undefined) out[key.key] = value;
    }
  }
  return { answers: out, displayedFields };
}

function answerFor(
  question: QsfQuestion,
  key: ValueKey,
  fields: Record<string, string[]>,
): AnswerValue | undefined {
  const qid = question.QuestionID;
  switch (key.kind) {
    case 'choice': {
      const chosen = fields[qid]?.[0];
      return chosen === undefined ? undefined : numeric(recodeOf(question, chosen));
    }
    case 'selected': {
      if (key.answerId === undefined) return fields[qid]?.includes(key.choiceId ?? '') ? 1 : undefined;
      const prefix = key.column ? `${qid}#${key.column}` : qid;
      return fields[`${prefix}_${key.choiceId}`]?.includes(key.answerId) ? 1 : undefined;
    }
    case 'scale': {
      const owner = key.column ? question.AdditionalQuestions?.[key.column] : question;
      const prefix = key.column ? `${qid}#${key.column}` : qid;
      const point = fields[`${prefix}_${key.choiceId}`]?.[0];
      return point === undefined || !owner ? undefined : numeric(recodeOf(owner, point));
    }
    case 'number': {
      const raw = fields[key.key]?.[0];
      return raw === undefined || raw === '' ? undefined : Number(raw);
    }
    case 'text':
      return fields[key.key]?.[0];
    default:
      // npsGroup is derived by the responses module from the NPS answer.
      return undefined;
  }
}
