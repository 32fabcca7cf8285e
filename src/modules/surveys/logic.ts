import { type QsfQuestion, recodeOf } from './qsf.js';
import { isMultiAnswer } from './question-types.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** What a condition is checked against: the response's values (value keys) and the survey's questions. */
export interface LogicContext {
  values: Record<string, unknown>;
  questions: ReadonlyMap<string, QsfQuestion>;
}

/**
 * Evaluates a QSF BooleanExpression (quota Logic, branch logic, display logic) against recorded values.
 * Its groups ("0", "1", …) are joined by their Type (If, And, Or); the expressions inside a group by each
 * one's `Conjuction` (the QSF spelling). Expressions understood: question choices Selected/NotSelected,
 * text and numeric entries compared with EqualTo/NotEqualTo/GreaterThan/LessThan/…/Contains/Empty, and
 * embedded fields compared the same way. An expression of another kind is false, so a condition Fieldwork
 * cannot read never counts a response towards a quota by mistake.
 */
export function evaluateLogic(logic: unknown, context: LogicContext): boolean {
  if (!isObject(logic)) return true;
  const groups = numberedChildren(logic);
  if (groups.length === 0) return true;
  let result = false;
  for (const [i, group] of groups.entries()) {
    const value = evaluateGroup(group, context);
    result = i === 0 ? value : group.Type === 'And' ? result && value : result || value;
  }
  return result;
}

function numberedChildren(node: Json): Json[] {
  return Object.keys(node)
    .filter((k) => /^\d+$/.test(k))
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => node[k])
    .filter(isObject);
}

function evaluateGroup(group: Json, context: LogicContext): boolean {
  let result = false;
  for (const [i, expression] of numberedChildren(group).entries()) {
    const value = evaluateExpression(expression, context);
    result = i === 0 ? value : expression.Conjuction === 'Or' ? result || value : result && value;
  }
  return result;
}

function evaluateExpression(expression: Json, context: LogicContext): boolean {
  const operator = String(expression.Operator ?? '');
  const right = expression.RightOperand === undefined ? '' : String(expression.RightOperand);
  if (expression.LogicType === 'EmbeddedField') {
    return compare(context.values[String(expression.LeftOperand ?? '')], operator, right);
  }
  if (expression.LogicType !== 'Question') return false;
  const locator = String(expression.LeftOperand ?? expression.ChoiceLocator ?? '');
  const match = /^q:\/\/(QID\d+)\/([A-Za-z]+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(locator);
  if (!match) return false;
  const [, qid = '', kind, first, second] = match;
  const question = context.questions.get(qid);
  if (!question) return false;
  switch (kind) {
    case 'SelectableChoice':
    case 'SelectableAnswer': {
      const chosen = isChosen(question, context.values, first ?? '', second);
      if (operator === 'Selected') return chosen;
      if (operator === 'NotSelected') return !chosen;
      return false;
    }
    case 'ChoiceTextEntryValue':
      return compare(context.values[first ? `${qid}_${first}_TEXT` : `${qid}_TEXT`], operator, right);
    case 'ChoiceNumericEntryValue':
      return compare(context.values[`${qid}_${first ?? ''}`], operator, right);
    default:
      return false;
  }
}

/** Was choice `id` chosen (or, for a matrix, scale point `answer` in row `id`)? */
function isChosen(
  question: QsfQuestion,
  values: Record<string, unknown>,
  id: string,
  answer?: string,
): boolean {
  const qid = question.QuestionID;
  if (question.QuestionType === 'Matrix') {
    if (answer === undefined) return values[`${qid}_${id}`] !== undefined;
    if (isMultiAnswer(question)) return isOne(values[`${qid}_${id}_${answer}`]);
    return String(values[`${qid}_${id}`] ?? '') === recodeOf(question, answer);
  }
  if (isMultiAnswer(question)) return isOne(values[`${qid}_${id}`]);
  return values[qid] !== undefined && String(values[qid]) === recodeOf(question, id);
}

const isOne = (value: unknown) => value === 1 || value === '1' || value === true;

function compare(value: unknown, operator: string, right: string): boolean {
  const left = value === undefined || value === null ? '' : String(value);
  const numbers = [Number(left), Number(right)] as const;
  const numeric = left !== '' && right !== '' && numbers.every(Number.isFinite);
  switch (operator) {
    case 'EqualTo':
      return numeric ? numbers[0] === numbers[1] : left === right;
    case 'NotEqualTo':
      return numeric ? numbers[0] !== numbers[1] : left !== right;
    case 'GreaterThan':
      return numeric && numbers[0] > numbers[1];
    case 'GreaterThanOrEqual':
      return numeric && numbers[0] >= numbers[1];
    case 'LessThan':
      return numeric && numbers[0] < numbers[1];
    case 'LessThanOrEqual':
      return numeric && numbers[0] <= numbers[1];
    case 'Contains':
      return left.includes(right);
    case 'DoesNotContain':
      return !left.includes(right);
    case 'Empty':
      return left === '';
    case 'NotEmpty':
      return left !== '';
    default:
      return false;
  }
}
