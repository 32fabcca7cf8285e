/**
 * Carry-forward (`DynamicChoices: {Locator: "q://QID1/ChoiceGroup/SelectedChoices"}`): a question's
 * choices (or matrix rows) come from another question's. The real exports name a carried choice by its
 * source id with an `x` before it (fixtures/exports/sp-xml.xml: `QID28_x1` … `QID28_x4_TEXT`), so the
 * definition's value keys, columns and labels see every source choice as a choice `x<id>` of the question;
 * the engine keeps the source's ids on its pages and `carriedFields` renames its answers on recording.
 * A matrix's scale points (columns) are carried the same way by `DynamicAnswers` (our guess at the key: no
 * real file we have carries into columns), named `x<id>` too (`QID2_1` = the point's recode, `QID2_1_x3`).
 */
import { type QsfChoice, type QsfDocument, type QsfQuestion, questionsOf, recodeOf } from './qsf.js';

export type CarryMode =
  | 'SelectedChoices'
  | 'NotSelectedChoices'
  | 'DisplayedChoices'
  | 'NotDisplayedChoices'
  | 'AllChoices';

/** Where a carry-forward goes: the question's choices (matrix rows) or its answers (matrix columns). */
export type CarryInto = 'DynamicChoices' | 'DynamicAnswers';

const LOCATOR =
  /^q:\/\/(QID\d+)\/ChoiceGroup\/(SelectedChoices|NotSelectedChoices|DisplayedChoices|NotDisplayedChoices|AllChoices)\b/;

/** The question and the choices a carry-forward takes, or undefined. */
export function carryForwardOf(question: QsfQuestion, into: CarryInto = 'DynamicChoices') {
  const locator = (question[into] as { Locator?: unknown } | null | undefined)?.Locator;
  const match = typeof locator === 'string' ? LOCATOR.exec(locator) : null;
  return match ? { from: match[1] as string, mode: match[2] as CarryMode } : undefined;
}

/** A carried choice `x<id>` remembers its source choice. */
export const CARRIED_FROM = 'CarriedFrom';

/** The source's choices as `x<id>` choices with their recodes, in the source's order. */
function carriedFrom(source: QsfQuestion) {
  const choices: Record<string, QsfChoice> = {};
  const recodes: Record<string, string> = {};
  for (const id of source.ChoiceOrder) {
    const choice = source.Choices[id];
    if (!choice) continue;
    choices[`x${id}`] = { ...choice, [CARRIED_FROM]: id };
    recodes[`x${id}`] = recodeOf(source, id);
  }
  return { choices, recodes };
}

/**
 * The question with every choice of its carry-forward's source added as `x<id>` (before its own), and
 * every choice of its columns' source added to its answers.
 */
export function withCarriedChoices(
  question: QsfQuestion,
  byId: ReadonlyMap<string, QsfQuestion>,
  seen: ReadonlySet<string> = new Set(),
): QsfQuestion {
  // A source that carries forward itself offers what it carried.
  const sourceOf = (into: CarryInto) => {
    const carry = carryForwardOf(question, into);
    const found = carry ? byId.get(carry.from) : undefined;
    if (!found || seen.has(found.QuestionID)) return undefined;
    return withCarriedChoices(found, byId, new Set([...seen, question.QuestionID]));
  };
  let out = question;
  const rows = sourceOf('DynamicChoices');
  if (rows) {
    const { choices, recodes } = carriedFrom(rows);
    out = {
      ...out,
      Choices: { ...choices, ...out.Choices },
      ChoiceOrder: [...Object.keys(choices), ...out.ChoiceOrder],
      RecodeValues: { ...recodes, ...out.RecodeValues },
    };
  }
  const columns = sourceOf('DynamicAnswers');
  if (columns) {
    // A matrix's recodes are its answers': the carried points' recodes win over carried rows'.
    const { choices, recodes } = carriedFrom(columns);
    out = {
      ...out,
      Answers: { ...choices, ...out.Answers },
      AnswerOrder: [...Object.keys(choices), ...out.AnswerOrder],
      RecodeValues: { ...out.RecodeValues, ...recodes },
    };
  }
  return out;
}

/** Every question of the document, carried choices added. */
export function resolvedQuestionsOf(doc: QsfDocument): QsfQuestion[] {
  const questions = questionsOf(doc);
  const byId = new Map(questions.map((q) => [q.QuestionID, q]));
  return questions.map((q) => withCarriedChoices(q, byId));
}

const carriedId = (list: QsfQuestion['Choices'], id: string) =>
  list[`x${id}`]?.[CARRIED_FROM] === id ? `x${id}` : id;

/**
 * The engine's answer fields of a carry-forward question (source choice ids: `QID2=1`, `QID2_1`,
 * `QID2_4_TEXT`) under the carried ids the value keys use (`QID2=x1`, `QID2_x1`, `QID2_x4_TEXT`); with
 * carried columns, a row's scale points (`QID2_1=x3`) and cells (`QID2_1_x3`) too.
 */
export function carriedFields(
  question: QsfQuestion,
  fields: Record<string, string[]>,
): Record<string, string[]> {
  const rows = carryForwardOf(question) !== undefined;
  const columns = carryForwardOf(question, 'DynamicAnswers') !== undefined;
  if (!rows && !columns) return fields;
  const qid = question.QuestionID;
  const row = (id: string) => (rows ? carriedId(question.Choices, id) : id);
  const column = (id: string) => (columns ? carriedId(question.Answers, id) : id);
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(fields)) {
    if (name === qid) {
      out[name] = values.map(row);
      continue;
    }
    if (!name.startsWith(`${qid}_`)) {
      out[name] = values;
      continue;
    }
    const [first = '', ...rest] = name.slice(qid.length + 1).split('_');
    if (rest.length === 0) {
      out[`${qid}_${row(first)}`] = columns ? values.map(column) : values;
      continue;
    }
    const tail = rest.length === 1 && rest[0] !== 'TEXT' ? column(rest[0] as string) : rest.join('_');
    out[`${qid}_${row(first)}_${tail}`] = values;
  }
  return out;
}
