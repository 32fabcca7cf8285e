/**
 * THE evaluator of QSF logic: display logic (questions, choices), branch logic, skip logic and quota
 * conditions. A BooleanExpression holds numbered condition sets; each set holds numbered expressions.
 * Sets after the first join with their `Type` (Or, else And), expressions after the first with their
 * `Conjuction` (the file format's spelling; `Conjunction` is read too), left to right.
 *
 * It reads a locator (`q://QID4%231/SelectedAnswerRecode/3`) in one way only and asks `LogicFacts` the
 * plain questions it reduces to. Two sources answer them: a live session (engine/session-facts.ts)
 * and a recorded response's values (recorded-facts.ts, for quotas). A condition that cannot be read (an
 * unknown locator, operator or question, or a fact the source cannot tell) is false whatever its operator,
 * so it never shows, skips or counts towards a quota by mistake.
 */

// biome-ignore lint/suspicious/noExplicitAny: QSF logic is loosely shaped JSON
export type Logic = any;

/**
 * What the logic may ask about one respondent. Question ids are as locators name them, `#<column>` for
 * a side-by-side column (`QID4#1`); choice and answer ids as the definition has them (never recodes).
 */
export interface LogicFacts {
  hasQuestion(questionId: string): boolean;
  /** Ids of the chosen choices of a multiple-choice question (one for a single answer). */
  chosenChoices(questionId: string): string[];
  /** Ids of the answers (scale points) chosen in matrix row `rowId`, or in any row without one. */
  chosenAnswers(questionId: string, rowId?: string): string[];
  /** Text typed beside choice `choiceId`, or into the question itself without one. */
  choiceText(questionId: string, choiceId?: string): string | undefined;
  /** The value entered for item `itemId`: a form field, a slider, a rank, a constant sum. */
  itemValue(questionId: string, itemId: string): string | undefined;
  /** The recode of a choice or a matrix answer: RecodeValues, else the id itself. */
  recode(questionId: string, id: string, of: 'choice' | 'answer'): string;
  /** Undefined when the source cannot tell. */
  isDisplayed(questionId: string): boolean | undefined;
  isChoiceDisplayed(questionId: string, choiceId: string): boolean | undefined;
  embedded(name: string): string | undefined;
  /**
   * Inside a loop & merge block: a merge field (`Field/1`) or `CurrentLoopNumber` of the current loop;
   * undefined outside loops (or from a source that has no loops).
   */
  loopField?(name: string): string | undefined;
}

export interface Locator {
  questionId: string;
  kind: string;
  args: string[];
}

/** `q://QID4%231/SelectableAnswer/2/3` → QID4#1, SelectableAnswer, [2, 3]. */
export function parseLocator(text: string): Locator | undefined {
  const match = /^q:\/\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  try {
    const questionId = decodeURIComponent(match[1]);
    return { questionId, kind: match[2], args: match[3] ? match[3].split('/') : [] };
  } catch {
    return undefined; // a malformed %-escape names no question
  }
}

const isObject = (value: unknown): value is Record<string, Logic> =>
  typeof value === 'object' && value !== null;

/** The numbered children of a node, in number order; anything but an object is passed over. */
const numbered = (node: Logic): Logic[] =>
  isObject(node)
    ? Object.keys(node)
        .filter((k) => /^\d+$/.test(k))
        .sort((a, b) => Number(a) - Number(b))
        .map((k) => node[k])
        .filter(isObject)
    : [];

const join = (left: boolean, right: boolean, conjunction: unknown): boolean =>
  conjunction === 'Or' ? left || right : left && right;

/** True when there is no logic at all. */
export function evaluateLogic(logic: Logic, facts: LogicFacts): boolean {
  const sets = numbered(logic);
  if (sets.length === 0) return true;
  let result = false;
  sets.forEach((set, i) => {
    const value = evaluateSet(set, facts);
    result = i === 0 ? value : join(result, value, set.Type);
  });
  return result;
}

function evaluateSet(set: Logic, facts: LogicFacts): boolean {
  let result = false;
  numbered(set).forEach((expression, i) => {
    const value = evaluateExpression(expression, facts);
    result = i === 0 ? value : join(result, value, expression.Conjuction ?? expression.Conjunction);
  });
  return result;
}

function evaluateExpression(expression: Logic, facts: LogicFacts): boolean {
  const operator = String(expression.Operator ?? '');
  if (expression.LogicType === 'EmbeddedField') {
    const name = String(expression.LeftOperand ?? '').replace(/^e:\/\/Field\//, '');
    return compare(operator, present([facts.embedded(name)]), expression);
  }
  // A loop & merge field: `lm://Field/1`, `${lm://Field/1}` or `lm://CurrentLoopNumber`.
  const loopField = /^(?:\$\{)?lm:\/\/([^}]+)\}?$/.exec(String(expression.LeftOperand ?? ''))?.[1];
  if (expression.LogicType === 'LoopAndMerge' || loopField !== undefined) {
    const value = loopField === undefined ? undefined : facts.loopField?.(loopField);
    return value !== undefined && compare(operator, present([value]), expression);
  }
  if (expression.LogicType !== 'Question') return false;
  const locator = parseLocator(String(expression.LeftOperand ?? expression.ChoiceLocator ?? ''));
  if (!locator || !facts.hasQuestion(locator.questionId)) return false;
  const reading = read(locator, facts);
  if (!reading) return false;
  if ('chosen' in reading) return selection(operator, reading.chosen);
  if ('shown' in reading) return displayed(operator, reading.shown);
  return compare(operator, reading.values, expression);
}

/** What a locator names: whether something was chosen, whether it was shown, or values to compare. */
type Reading = { chosen: boolean } | { shown: boolean | undefined } | { values: string[] };

function read(locator: Locator, facts: LogicFacts): Reading | undefined {
  const { questionId: id, kind } = locator;
  const [first = '', second] = locator.args;
  switch (kind) {
    case 'SelectableChoice':
      // A matrix's choices are its rows: a row is chosen once it has an answer.
      return { chosen: facts.chosenChoices(id).includes(first) || facts.chosenAnswers(id, first).length > 0 };
    case 'SelectableAnswer':
      // `SelectableAnswer/<row>/<answer>`, or `SelectableAnswer/<answer>` for the answer in any row.
      return {
        chosen:
          second === undefined
            ? facts.chosenAnswers(id).includes(first)
            : facts.chosenAnswers(id, first).includes(second),
      };
    case 'ChoiceDisplayed':
      return { shown: facts.isChoiceDisplayed(id, first) };
    case 'AnswerDisplayed':
    case 'QuestionDisplayed':
      return { shown: facts.isDisplayed(id) }; // a matrix shows all its answers with the question
    case 'SelectedChoicesRecode':
      return { values: facts.chosenChoices(id).map((c) => facts.recode(id, c, 'choice')) };
    case 'SelectedAnswerRecode':
      return { values: facts.chosenAnswers(id, first).map((a) => facts.recode(id, a, 'answer')) };
    case 'ChoiceTextEntryValue': {
      // `ChoiceTextEntryValue/<choice>`: a choice's text box, else a form field (`QID10_1`).
      const text = facts.choiceText(id, first || undefined);
      return { values: present([text ?? (first ? facts.itemValue(id, first) : undefined)]) };
    }
    case 'ChoiceNumericEntryValue':
      return { values: present([facts.itemValue(id, first)]) };
    default:
      return undefined;
  }
}

/** The values that are there: an empty text box is no answer. */
const present = (values: (string | undefined)[]): string[] =>
  values.filter((v): v is string => v !== undefined && v !== '');

function selection(operator: string, chosen: boolean): boolean {
  if (operator === 'Selected') return chosen;
  if (operator === 'NotSelected') return !chosen;
  return false;
}

function displayed(operator: string, shown: boolean | undefined): boolean {
  if (shown === undefined) return false;
  if (operator === 'Displayed') return shown;
  if (operator === 'NotDisplayed') return !shown;
  return false;
}

/** A number only when the whole text is one: `12abc`, `0x10` and blanks are text. */
function numberOf(text: string): number | undefined {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * Compares the left values with RightOperand; with several (a multiple answer's recodes), one matching
 * suffices. Two numbers compare as numbers, anything else as text (`IgnoreCase` folds case); an order
 * (GreaterThan …) needs two numbers.
 */
function compare(operator: string, left: string[], expression: Logic): boolean {
  const right = String(expression.RightOperand ?? '');
  const ignoreCase =
    expression.IgnoreCase === 1 || expression.IgnoreCase === true || expression.IgnoreCase === '1';
  const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const rightNumber = numberOf(right);
  const equal = (v: string) => {
    const n = numberOf(v);
    return n !== undefined && rightNumber !== undefined ? n === rightNumber : fold(v) === fold(right);
  };
  const order = (test: (l: number, r: number) => boolean) =>
    left.some((v) => {
      const n = numberOf(v);
      return n !== undefined && rightNumber !== undefined && test(n, rightNumber);
    });
  switch (operator) {
    case 'Empty':
      return left.length === 0;
    case 'NotEmpty':
      return left.length > 0;
    case 'EqualTo':
      return left.some(equal);
    case 'NotEqualTo':
      return !left.some(equal);
    case 'Contains':
      return left.some((v) => fold(v).includes(fold(right)));
    case 'DoesNotContain':
      return !left.some((v) => fold(v).includes(fold(right)));
    case 'GreaterThan':
      return order((l, r) => l > r);
    case 'GreaterThanOrEqual':
      return order((l, r) => l >= r);
    case 'LessThan':
      return order((l, r) => l < r);
    case 'LessThanOrEqual':
      return order((l, r) => l <= r);
    default:
      return false;
  }
}
