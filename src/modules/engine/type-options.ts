/** Settings of the matrix-like and ranking types (constant sum, pick-group-rank, matrix text entry) read from QSF. */

import { carryForwardOf } from '../surveys/definition/carry-forward.js';
import { profileRowScale } from '../surveys/definition/matrix-scales.js';
import { groupsOf } from '../surveys/definition/pick-group-rank.js';
import type { QsfQuestion } from '../surveys/definition/qsf.js';
import { type Json, num, str } from './qsf-reading.js';
import type { Question, QuestionKind } from './survey-model.js';

const TEXT_SIZES: Record<string, Question['textSize']> = { Short: 'short', Medium: 'medium', Long: 'long' };

export function typeOptions(kind: QuestionKind, payload: QsfQuestion): Partial<Question> {
  switch (kind) {
    case 'constant-sum':
    case 'matrix-cs': {
      // `Validation.Settings: {Type: "ChoicesTotal", ChoiceTotal: "100"}`: the numbers must add up to it.
      const settings = (payload.Validation?.Settings ?? {}) as Json;
      const total =
        str(settings.Type) === 'ChoicesTotal' ? num(settings.ChoiceTotal, Number.NaN) : Number.NaN;
      return { constantSum: Number.isFinite(total) ? { total } : {} };
    }
    case 'pgr':
      return { groups: groupsOf(payload) };
    case 'matrix-text':
      return { textSize: TEXT_SIZES[str(payload.SubSelector)] ?? 'short' };
    case 'matrix-profile':
      return { answers: [], rowAnswers: profileScales(payload) };
    default:
      return {};
  }
}

/** A profile matrix's rows, each with its own scale points (their ids are their recodes). */
function profileScales(payload: QsfQuestion): Record<string, Question['answers']> {
  const scales: Record<string, Question['answers']> = {};
  for (const row of payload.ChoiceOrder ?? []) {
    const scale = profileRowScale(payload, row);
    scales[row] = scale.AnswerOrder.map((id) => ({
      id,
      text: str(scale.Answers[id]?.Display, id),
      recode: id,
      textEntry: false,
      exclusive: false,
    }));
  }
  return scales;
}

/**
 * Carry-forward of all choices (`.../ChoiceGroup/AllChoices`): the source's choices, answered or not, so
 * they are the question's own (selected and not selected ones follow the answers: flow.ts).
 */
export function carryAllChoices(payloads: QsfQuestion[], questions: Map<string, Question>): void {
  for (const payload of payloads) {
    const carry = carryForwardOf(payload);
    const source = carry?.mode === 'AllChoices' ? questions.get(carry.from) : undefined;
    const question = questions.get(payload.QuestionID);
    if (source && question) question.choices = source.choices;
  }
}
