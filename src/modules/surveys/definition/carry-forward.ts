/**
 * Carry-forward (`DynamicChoices: {Locator: "q://QID1/ChoiceGroup/SelectedChoices"}`): a question's
 * choices (or matrix rows) come from another question's. The real exports name a carried choice by its
 * source id with an `x` before it (fixtures/exports/sp-xml.xml: `QID28_x1` … `QID28_x4_TEXT`), so the
 * definition's value keys, columns and labels see every source choice as a choice `x<id>` of the question;
 * the engine keeps the source's ids on its pages and `carriedFields` renames its answers on recording.
 */
import { type QsfChoice, type QsfDocument, type QsfQuestion, questionsOf, recodeOf } from './qsf.js';

export type CarryMode =
  | 'SelectedChoices'
  | 'NotSelectedChoices'
  | 'DisplayedChoices'
  | 'NotDisplayedChoices'
  | 'AllChoices';

const LOCATOR =
  /^q:\/\/(QID\d+)\/ChoiceGroup\/(SelectedChoices|NotSelectedChoices|DisplayedChoices|NotDisplayedChoices|AllChoices)\b/;

/** The question and the choices a carry-forward takes, or undefined. */
export function carryForwardOf(question: QsfQuestion) {
  const locator = (question.DynamicChoices as { Locator?: unknown } | null | undefined)?.Locator;
  const match = typeof locator === 'string' ? LOCATOR.exec(locator) : null;
  return match ? { from: match[1] as string, mode: match[2] as CarryMode } : undefined;
}

/** A carried choice `x<id>` remembers its source choice. */
export const CARRIED_FROM = 'CarriedFrom';

/** The question with every choice of its carry-forward's source added as `x<id>` (before its own). */
export function withCarriedChoices(
  question: QsfQuestion,
  byId: ReadonlyMap<string, QsfQuestion>,
  seen: ReadonlySet<string> = new Set(),
): QsfQuestion {
  const carry = carryForwardOf(question);
  const found = carry ? byId.get(carry.from) : undefined;
  if (!found || seen.has(found.QuestionID)) return question;
  // A source that carries forward itself offers what it carried.
  const source = withCarriedChoices(found, byId, new Set([...seen, question.QuestionID]));
  const choices: Record<string, QsfChoice> = {};
  const recodes: Record<string, string> = {};
  for (const id of source.ChoiceOrder) {
    const choice = source.Choices[id];
    if (!choice) continue;
    choices[`x${id}`] = { ...choice, [CARRIED_FROM]: id };
    recodes[`x${id}`] = recodeOf(source, id);
  }
  return {
    ...question,
    Choices: { ...choices, ...question.Choices },
    ChoiceOrder: [...Object.keys(choices), ...question.ChoiceOrder],
    RecodeValues: { ...recodes, ...question.RecodeValues },
  };
}

/** Every question of the document, carried choices added. */
export function resolvedQuestionsOf(doc: QsfDocument): QsfQuestion[] {
  const questions = questionsOf(doc);
  const byId = new Map(questions.map((q) => [q.QuestionID, q]));
  return questions.map((q) => withCarriedChoices(q, byId));
}

/**
 * The engine's answer fields of a carry-forward question (source choice ids: `QID2=1`, `QID2_1`,
 * `QID2_4_TEXT`) under the carried ids the value keys use (`QID2=x1`, `QID2_x1`, `QID2_x4_TEXT`).
 */
export function carriedFields(
  question: QsfQuestion,
  fields: Record<string, string[]>,
): Record<string, string[]> {
  if (!carryForwardOf(question)) return fields;
  const qid = question.QuestionID;
  const carried = (id: string) => (question.Choices[`x${id}`]?.[CARRIED_FROM] === id ? `x${id}` : id);
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(fields)) {
    if (name === qid) {
      out[name] = values.map(carried);
      continue;
    }
    const row = name.slice(qid.length + 1).split('_')[0] ?? '';
    out[
      name.startsWith(`${qid}_`) && row
        ? `${qid}_${carried(row)}${name.slice(qid.length + 1 + row.length)}`
        : name
    ] = values;
  }
  return out;
}
