/**
 * In-page display logic (issue 13 item 5). A question whose `DisplayLogic` is `inPage` sits on its page from
 * the start, hidden while its condition does not hold. With the page's script, it appears as soon as the
 * condition holds (the script evaluates conditions on the page's choices, given here as plain data) and
 * the form says it was revealed (`_fw_revealed`); without the script, the page posts back and is shown
 * again with the follow-up. A hidden question is never validated nor recorded.
 */
import { evaluateLogic } from '../surveys/definition/logic.js';
import type { FormFields } from './answers.js';
import { type Answers, type Page, pageFacts, type Walk } from './flow.js';
import type { EngineSurvey, Question } from './survey-model.js';

/**
 * A condition the page's script evaluates: sets joined by `or`/`and`, each a list of
 * `[join, question id, choice id, selected?]` clauses read left to right.
 */
export type ClientCondition = [string, [string, string, string, boolean][]][];

// biome-ignore lint/suspicious/noExplicitAny: QSF logic is loosely shaped JSON
type Json = any;

const numbered = (value: Json): Json[] =>
  Object.keys(value ?? {})
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => value[k]);

/** The condition as the script can read it: choices of questions on the same page; else undefined. */
export function clientCondition(question: Question, pageIds: readonly string[]): ClientCondition | undefined {
  const out: ClientCondition = [];
  for (const set of numbered(question.displayLogic)) {
    const clauses: [string, string, string, boolean][] = [];
    for (const expression of numbered(set)) {
      const match = /^q:\/\/(QID\d+)\/SelectableChoice\/([^/]+)$/.exec(String(expression?.LeftOperand ?? ''));
      const operator = expression?.Operator;
      if (!match?.[1] || !match[2] || !pageIds.includes(match[1])) return undefined;
      if (operator !== 'Selected' && operator !== 'NotSelected') return undefined;
      const join = String(expression.Conjuction ?? expression.Conjunction ?? 'And').toLowerCase();
      clauses.push([join, match[1], match[2], operator === 'Selected']);
    }
    out.push([String(set?.Type ?? 'And').toLowerCase(), clauses]);
  }
  return out.length > 0 ? out : undefined;
}

/** Whether an in-page question's condition holds with these answers. */
export function inPageHolds(
  survey: EngineSurvey,
  question: Question,
  answers: Answers,
  walked: Walk,
  page: Page,
  seed: number,
): boolean {
  // In a loop, the condition reads this loop's answers (loops.ts).
  const facts = pageFacts(survey, answers, walked, page, seed);
  return question.displayLogic !== undefined && evaluateLogic(question.displayLogic, facts);
}

/** The in-page questions the script says it revealed. */
export const revealedOf = (form: FormFields): string[] => form._fw_revealed ?? [];
