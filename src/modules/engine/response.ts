/**
 * From a session's answers (raw form fields per question) to the answers recordCompletedResponse takes:
 * one value per value key of the survey definition (surveys/definition/value-keys.ts), for the questions
 * the respondent was shown.
 */
import { carriedFields } from '../surveys/definition/carry-forward.js';
import { scaleOwnerOf } from '../surveys/definition/matrix-scales.js';
import { type QsfQuestion, recodeOf } from '../surveys/definition/qsf.js';
import { QuestionKeys } from '../surveys/definition/recorded-facts.js';
import type { AnswerValue } from '../surveys/definition/response-values.js';
import type { ValueKey } from '../surveys/definition/value-keys.js';
import { type Answers, factsFor, shownAnswers, visibleChoices, type Walk } from './flow.js';
import type { EngineSurvey, FlowNode } from './survey-model.js';

export interface EngineAnswers {
  answers: Record<string, AnswerValue>;
  /** Every value key of every question shown. */
  displayedFields: string[];
}

const numeric = (value: string): AnswerValue => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value);

/**
 * `questionKeys`: the value keys of `questions`; the compiled version's (SurveyForTaking), so that a
 * completion does not work them out again.
 */
export function responseAnswers(
  questions: ReadonlyMap<string, QsfQuestion>,
  shown: Iterable<string>,
  answers: Answers,
  questionKeys: QuestionKeys = new QuestionKeys(questions),
): EngineAnswers {
  const out: Record<string, AnswerValue> = {};
  const displayedFields: string[] = [];
  // Each question once, however often the path shows it (displayedFields holds each field once).
  for (const entry of new Set(shown)) {
    // `<loop>_<QID>`: a loop's answers, recorded under `<loop>_<value key>`.
    const [, loopId, questionId = entry] = /^(?:(.+)_)?(QID[^_]+)$/.exec(entry) ?? [];
    const question = questions.get(questionId);
    if (!question) continue;
    const fields = carriedFields(question, answers[entry] ?? {});
    const prefix = loopId ? `${loopId}_` : '';
    for (const key of questionKeys.all(questionId)) {
      displayedFields.push(prefix + key.key);
      const value = answerFor(question, key, fields);
      if (value !== undefined) out[prefix + key.key] = value;
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
      // Pick-group-rank: the item is in the group.
      if (key.group !== undefined) return fields[key.key]?.length ? 1 : undefined;
      if (key.answerId === undefined) return fields[qid]?.includes(key.choiceId ?? '') ? 1 : undefined;
      const prefix = key.column ? `${qid}#${key.column}` : qid;
      return fields[`${prefix}_${key.choiceId}`]?.includes(key.answerId) ? 1 : undefined;
    }
    case 'scale': {
      const owner = scaleOwnerOf(question, key);
      const prefix = key.column ? `${qid}#${key.column}` : qid;
      const point = fields[`${prefix}_${key.choiceId}`]?.[0];
      return point === undefined ? undefined : numeric(recodeOf(owner, point));
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

/**
 * The presented order of every randomized question shown (issue 13 item 3), as the exports read it:
 * `QID6_DO_<choice>` is the position choice was shown at (1 first), `QID6_ADO_<answer>` a matrix's scale
 * point's, `BL_x_DO` the block's questions in the order shown, joined by `|`, and `FL_n_DO` a block
 * randomizer's children in the order the walk presented them (`BL_x` for a block, else the child's FlowID).
 */
export function displayOrders(
  survey: EngineSurvey,
  walked: Walk,
  answers: Answers,
  seed: number,
): Record<string, AnswerValue> {
  const out: Record<string, AnswerValue> = {};
  const facts = factsFor(survey, answers, walked.displayed, walked.embedded, seed);
  for (const id of walked.displayed) {
    const question = survey.questions.get(id);
    if (question?.randomizeAnswers)
      shownAnswers(question, seed).forEach((answer, i) => {
        out[`${id}_ADO_${answer.id}`] = i + 1;
      });
    if (!question?.randomize) continue;
    visibleChoices(survey, question, facts, seed).forEach((choice, i) => {
      out[`${id}_DO_${choice.id}`] = i + 1;
    });
  }
  for (const [blockId, block] of survey.blocks) {
    if (!block.randomizeQuestions) continue;
    const shown = walked.pages
      .filter((p) => p.blockId === blockId)
      .flatMap((p) => p.questionIds.filter((id) => !p.hidden.includes(id)));
    if (shown.length > 0) out[`${blockId}_DO`] = shown.join('|');
  }
  Object.assign(out, randomizerOrders(survey.flow, walked));
  return out;
}

/** `FL_n_DO` of every randomizer the walk went through, from the children it picked (`Walk.presented`). */
function randomizerOrders(nodes: FlowNode[], walked: Walk): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of nodes) {
    if (!('flow' in node)) continue;
    const picked = node.type === 'randomizer' ? walked.presented.get(node.id) : undefined;
    if (picked && picked.length > 0)
      out[`${node.id}_DO`] = picked
        .map((id) => {
          const child = node.flow.find((c) => c.id === id);
          return child?.type === 'block' ? child.blockId : id;
        })
        .join('|');
    Object.assign(out, randomizerOrders(node.flow, walked));
  }
  return out;
}
