/**
 * Display logic, branch logic and quota conditions: QSF BooleanExpressions evaluated against a session.
 * A BooleanExpression holds numbered condition sets; each set holds numbered expressions. Sets after
 * the first join with their `Type` (And/Or), expressions after the first with their `Conjuction`
 * (the file format's spelling), read left to right.
 */

// biome-ignore lint/suspicious/noExplicitAny: QSF logic is loosely shaped JSON
export type Logic = any;

/** What the logic may ask about a session: its answers (raw form fields), what was shown, embedded data. */
export interface LogicFacts {
  /** The raw answer fields of a question (`QID1`, `QID1_2_TEXT`, `QID3_1` ...), absent when unanswered. */
  fields(questionId: string): Record<string, string[]> | undefined;
  /** The recode of an answer (matrix columns) or choice, for `...Recode` operands. */
  recode(questionId: string, id: string, of: 'choice' | 'answer'): string;
  isDisplayed(questionId: string): boolean;
  isChoiceDisplayed(questionId: string, choiceId: string): boolean;
  embedded(name: string): string | undefined;
}

const numbered = (value: Logic): Logic[] =>
  value && typeof value === 'object'
    ? Object.keys(value)
        .filter((k) => /^\d+$/.test(k))
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => value[k])
    : [];

/** True when there is no logic at all; a set of conditions is evaluated left to right. */
export function evaluateLogic(logic: Logic, facts: LogicFacts): boolean {
  const sets = numbered(logic);
  if (sets.length === 0) return true;
  let result = false;
  sets.forEach((set, i) => {
    const value = evaluateSet(set, facts);
    result = i === 0 ? value : join(result, value, set?.Type);
  });
  return result;
}

function evaluateSet(set: Logic, facts: LogicFacts): boolean {
  let result = false;
  numbered(set).forEach((expression, i) => {
    const value = evaluateExpression(expression, facts);
    result = i === 0 ? value : join(result, value, expression?.Conjuction ?? expression?.Conjunction);
  });
  return result;
}

const join = (left: boolean, right: boolean, conjunction: unknown): boolean =>
  conjunction === 'Or' ? left || right : left && right;

function evaluateExpression(expression: Logic, facts: LogicFacts): boolean {
  if (!expression || typeof expression !== 'object') return false;
  const operator = String(expression.Operator ?? '');
  if (expression.LogicType === 'EmbeddedField') {
    const left = facts.embedded(String(expression.LeftOperand ?? '')) ?? '';
    return compare(operator, left ? [left] : [], expression);
  }
  if (expression.LogicType !== 'Question') return false;
  const locator = parseLocator(String(expression.LeftOperand ?? expression.ChoiceLocator ?? ''));
  if (!locator) return false;
  return evaluateLocator(locator, operator, expression, facts);
}

interface Locator {
  questionId: string;
  kind: string;
  args: string[];
}

export function parseLocator(text: string): Locator | undefined {
  const match = /^q:\/\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return {
    questionId: decodeURIComponent(match[1]),
    kind: match[2],
    args: match[3] ? match[3].split('/') : [],
  };
}

/** The part of a question's answer fields that belongs to it (side-by-side columns are `QID4#1`). */
function fieldsOf(facts: LogicFacts, questionId: string): Record<string, string[]> {
  return facts.fields(questionId.split('#')[0] ?? questionId) ?? {};
}

function evaluateLocator(locator: Locator, operator: string, expression: Logic, facts: LogicFacts): boolean {
  const { questionId, kind, args } = locator;
  const fields = fieldsOf(facts, questionId);
  switch (kind) {
    case 'SelectableChoice': {
      const chosen = (fields[questionId] ?? []).includes(args[0] ?? '');
      const rowAnswered = (fields[`${questionId}_${args[0]}`] ?? []).length > 0;
      return selection(operator, chosen || rowAnswered);
    }
    case 'SelectableAnswer': {
      // `SelectableAnswer/<row>/<answer>` or, for the answer in any row, `SelectableAnswer/<answer>`.
      const [first, second] = args;
      const chosen =
        second === undefined
          ? Object.entries(fields).some(([k, v]) => k.startsWith(`${questionId}_`) && v.includes(first ?? ''))
          : (fields[`${questionId}_${first}`] ?? []).includes(second);
      return selection(operator, chosen);
    }
    case 'ChoiceDisplayed':
      return displayed(operator, facts.isChoiceDisplayed(questionId.split('#')[0] ?? '', args[0] ?? ''));
    case 'AnswerDisplayed':
    case 'QuestionDisplayed':
      return displayed(operator, facts.isDisplayed(questionId.split('#')[0] ?? ''));
    case 'SelectedAnswerRecode': {
      const answers = fields[`${questionId}_${args[0]}`] ?? [];
      return compare(
        operator,
        answers.map((a) => facts.recode(questionId, a, 'answer')),
        expression,
      );
    }
    case 'SelectedChoicesRecode':
      return compare(
        operator,
        (fields[questionId] ?? []).map((c) => facts.recode(questionId, c, 'choice')),
        expression,
      );
    case 'ChoiceTextEntryValue': {
      const key = args[0] ? `${questionId}_${args[0]}_TEXT` : `${questionId}_TEXT`;
      const form = args[0] ? fields[`${questionId}_${args[0]}`] : undefined;
      return compare(operator, nonEmpty(fields[key] ?? form ?? []), expression);
    }
    case 'ChoiceNumericEntryValue':
      return compare(operator, nonEmpty(fields[`${questionId}_${args[0]}`] ?? []), expression);
    default:
      return false;
  }
}

const nonEmpty = (values: string[]) => values.filter((v) => v !== '');

function selection(operator: string, chosen: boolean): boolean {
  if (operator === 'Selected') return chosen;
  if (operator === 'NotSelected') return !chosen;
  return false;
}

function displayed(operator: string, shown: boolean): boolean {
  if (operator === 'Displayed') return shown;
  if (operator === 'NotDisplayed') return !shown;
  return false;
}

/** A comparison of the left values (any one matching suffices) with RightOperand. */
function compare(operator: string, left: string[], expression: Logic): boolean {
  const right = String(expression.RightOperand ?? '');
  const ignoreCase = expression.IgnoreCase === 1 || expression.IgnoreCase === true;
  const norm = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const asNumber = (s: string) => Number.parseFloat(s);
  const any = (test: (value: string) => boolean) => left.some(test);
  switch (operator) {
    case 'Empty':
      return left.length === 0;
    case 'NotEmpty':
      return left.length > 0;
    case 'EqualTo':
      return any((v) => norm(v) === norm(right) || asNumber(v) === asNumber(right));
    case 'NotEqualTo':
      return !any((v) => norm(v) === norm(right) || asNumber(v) === asNumber(right));
    case 'Contains':
      return any((v) => norm(v).includes(norm(right)));
    case 'DoesNotContain':
      return !any((v) => norm(v).includes(norm(right)));
    case 'GreaterThan':
      return any((v) => asNumber(v) > asNumber(right));
    case 'GreaterThanOrEqual':
      return any((v) => asNumber(v) >= asNumber(right));
    case 'LessThan':
      return any((v) => asNumber(v) < asNumber(right));
    case 'LessThanOrEqual':
      return any((v) => asNumber(v) <= asNumber(right));
    default:
      return false;
  }
}
