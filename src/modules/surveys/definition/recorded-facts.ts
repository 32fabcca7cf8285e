/**
 * LogicFacts from a response's values under the survey's value keys (value-keys.ts), for quota
 * conditions: the values the API records, and the engine's answers so far in the same form. Values hold
 * recodes, so a chosen choice is found back by its recode. A response does not say what was shown and
 * left unanswered: a question or choice with an answer was displayed, of any other the facts cannot tell.
 */
import type { LogicFacts } from './logic.js';
import { type QsfQuestion, recodeOf } from './qsf.js';
import { type ValueKey, valueKeysOf } from './value-keys.js';

export function recordedFacts(
  values: Readonly<Record<string, unknown>>,
  questions: ReadonlyMap<string, QsfQuestion>,
  questionKeys: QuestionKeys = new QuestionKeys(questions),
): LogicFacts {
  return new RecordedFacts(values, questions, questionKeys);
}

/**
 * The value keys of each question, or of one side-by-side column (`QID4#1`), by locator: worked out on
 * first use. The compiled survey version keeps one (compiled-survey.ts), so the facts of its responses
 * share it; `questions` must be the ones the facts read.
 */
export class QuestionKeys {
  private readonly ofQuestion = new Map<string, readonly ValueKey[]>();
  private readonly ofLocator = new Map<string, readonly ValueKey[]>();

  constructor(private readonly questions: ReadonlyMap<string, QsfQuestion>) {}

  /** The keys of a question or of one side-by-side column (`QID4#1`). */
  of(questionId: string): readonly ValueKey[] {
    let keys = this.ofLocator.get(questionId);
    if (!keys) {
      const { base, column } = split(questionId);
      keys = this.all(base).filter((k) => k.column === column);
      this.ofLocator.set(questionId, keys);
    }
    return keys;
  }

  /** Every key of a question, its side-by-side columns' included (valueKeysOf, in its order). */
  all(questionId: string): readonly ValueKey[] {
    let all = this.ofQuestion.get(questionId);
    if (!all) {
      const question = this.questions.get(questionId);
      all = question ? valueKeysOf(question) : [];
      this.ofQuestion.set(questionId, all);
    }
    return all;
  }
}

/** `QID4#1` → the question QID4 and its side-by-side column "1". */
function split(questionId: string): { base: string; column?: string } {
  const [base = questionId, column] = questionId.split('#');
  return { base, column };
}

class RecordedFacts implements LogicFacts {
  constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    private readonly questions: ReadonlyMap<string, QsfQuestion>,
    private readonly questionKeys: QuestionKeys,
  ) {}

  hasQuestion(questionId: string): boolean {
    return this.owner(questionId) !== undefined;
  }

  chosenChoices(questionId: string): string[] {
    const question = this.owner(questionId);
    return this.keysOf(questionId).flatMap((k) => {
      if (k.kind === 'choice') return this.withRecode(question, question?.ChoiceOrder, k);
      return k.kind === 'selected' && k.answerId === undefined && this.isOne(k) ? [k.choiceId ?? ''] : [];
    });
  }

  chosenAnswers(questionId: string, rowId?: string): string[] {
    const question = this.owner(questionId);
    const rows = this.keysOf(questionId).filter((k) => rowId === undefined || k.choiceId === rowId);
    return rows.flatMap((k) => {
      if (k.kind === 'scale') return this.withRecode(question, question?.AnswerOrder, k);
      return k.kind === 'selected' && k.answerId !== undefined && this.isOne(k) ? [k.answerId] : [];
    });
  }

  choiceText(questionId: string, choiceId?: string): string | undefined {
    const name = choiceId === undefined ? `${questionId}_TEXT` : `${questionId}_${choiceId}_TEXT`;
    return this.valueOf(this.keysOf(questionId).find((k) => k.key === name && k.kind === 'text'));
  }

  itemValue(questionId: string, itemId: string): string | undefined {
    const name = `${questionId}_${itemId}`;
    const key = this.keysOf(questionId).find(
      (k) => k.key === name && (k.kind === 'text' || k.kind === 'number'),
    );
    return this.valueOf(key);
  }

  recode(questionId: string, id: string, of: 'choice' | 'answer'): string {
    const question = this.owner(questionId);
    // A matrix's RecodeValues recode its answers; its rows (choices) keep their ids.
    if (!question || (of === 'choice' && question.QuestionType === 'Matrix')) return id;
    return recodeOf(question, id);
  }

  isDisplayed(questionId: string): boolean | undefined {
    return this.keysOf(questionId).some((k) => this.valueOf(k) !== undefined) || undefined;
  }

  isChoiceDisplayed(questionId: string, choiceId: string): boolean | undefined {
    const chosen =
      this.chosenChoices(questionId).includes(choiceId) ||
      this.chosenAnswers(questionId, choiceId).length > 0;
    return chosen || undefined;
  }

  embedded(name: string): string | undefined {
    return this.text(name);
  }

  /** The question, or the side-by-side column, whose choices and answers a locator names. */
  private owner(questionId: string): QsfQuestion | undefined {
    const { base, column } = split(questionId);
    const question = this.questions.get(base);
    return column === undefined ? question : question?.AdditionalQuestions?.[column];
  }

  /** The value keys of the question, or of one side-by-side column. */
  private keysOf(questionId: string): readonly ValueKey[] {
    return this.questionKeys.of(questionId);
  }

  private text(name: string): string | undefined {
    const value = this.values[name];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  }

  private valueOf(key: ValueKey | undefined): string | undefined {
    return key ? this.text(key.key) : undefined;
  }

  private isOne(key: ValueKey): boolean {
    return this.valueOf(key) === '1' || this.values[key.key] === true;
  }

  /** The ids among `ids` whose recode the key holds (a recode may be shared, so all of them). */
  private withRecode(question: QsfQuestion | undefined, ids: string[] | undefined, key: ValueKey): string[] {
    const value = this.valueOf(key);
    if (!question || value === undefined) return [];
    return (ids ?? []).filter((id) => recodeOf(question, id) === value);
  }
}
