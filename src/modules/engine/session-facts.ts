/**
 * LogicFacts from a live session: the answers so far as raw form fields per question (`QID1` the chosen
 * choice ids, `QID3_2` the answer ids of matrix row 2, `QID4#1_2` of a side-by-side column, `QID1_2_TEXT`
 * typed text, `QID10_1` a form field or slider), what the walk has shown so far and the embedded data.
 */
import type { LogicFacts } from '../surveys/definition/logic.js';
import type { Answers } from './flow.js';
import type { LoopContext } from './piping.js';
import type { EngineSurvey, Question } from './survey-model.js';

/** Does the page show this choice of a displayed question (display logic, randomisation, carry-forward)? */
export type ChoiceShown = (question: Question, choiceId: string) => boolean;

const MATRIX = new Set(['matrix-single', 'matrix-multi', 'matrix-profile']);
const present = (values: string[] | undefined) => (values ?? []).filter((v) => v !== '');

export class SessionFacts implements LogicFacts {
  constructor(
    private readonly survey: EngineSurvey,
    private readonly answers: Answers,
    private readonly displayed: ReadonlySet<string>,
    private readonly embeddedData: Readonly<Record<string, string>>,
    private readonly choiceShown: ChoiceShown,
    /** The loop & merge loop the facts are read in (its answers are already in `answers`). */
    private readonly loop?: LoopContext,
  ) {}

  hasQuestion(questionId: string): boolean {
    return this.question(questionId) !== undefined;
  }

  chosenChoices(questionId: string): string[] {
    return present(this.fields(questionId)[questionId]);
  }

  chosenAnswers(questionId: string, rowId?: string): string[] {
    if (!MATRIX.has(this.question(questionId)?.kind ?? '')) return [];
    if (rowId !== undefined) return present(this.fields(questionId)[`${questionId}_${rowId}`]);
    // Every row, including rows carried forward from another question: `QID3_<row>`, not its `_TEXT`.
    return Object.entries(this.fields(questionId))
      .filter(([key]) => key.startsWith(`${questionId}_`) && !key.endsWith('_TEXT'))
      .flatMap(([, values]) => present(values));
  }

  choiceText(questionId: string, choiceId?: string): string | undefined {
    const key = choiceId === undefined ? `${questionId}_TEXT` : `${questionId}_${choiceId}_TEXT`;
    return present(this.fields(questionId)[key])[0];
  }

  itemValue(questionId: string, itemId: string): string | undefined {
    if (MATRIX.has(this.question(questionId)?.kind ?? '')) return undefined;
    return present(this.fields(questionId)[`${questionId}_${itemId}`])[0];
  }

  recode(questionId: string, id: string, of: 'choice' | 'answer'): string {
    const question = this.question(questionId);
    const list = of === 'answer' ? question?.answers : question?.choices;
    return list?.find((c) => c.id === id)?.recode ?? id;
  }

  isDisplayed(questionId: string): boolean {
    return this.displayed.has(baseOf(questionId));
  }

  isChoiceDisplayed(questionId: string, choiceId: string): boolean {
    const question = this.survey.questions.get(baseOf(questionId));
    return question !== undefined && this.isDisplayed(questionId) && this.choiceShown(question, choiceId);
  }

  embedded(name: string): string | undefined {
    return this.embeddedData[name];
  }

  loopField(name: string): string | undefined {
    if (!this.loop) return undefined;
    if (name === 'CurrentLoopNumber') return String(this.loop.number);
    const field = /^Field\/(\d+)$/.exec(name)?.[1];
    return field === undefined ? undefined : (this.loop.fields[Number(field) - 1] ?? '');
  }

  /** The question, or the side-by-side column (`QID4#1`), a locator names. */
  private question(questionId: string): Question | undefined {
    const question = this.survey.questions.get(baseOf(questionId));
    return questionId.includes('#') ? question?.columns.find((c) => c.id === questionId) : question;
  }

  /** Side-by-side columns' fields are kept with their question's. */
  private fields(questionId: string): Record<string, string[]> {
    return this.answers[baseOf(questionId)] ?? {};
  }
}

const baseOf = (questionId: string) => questionId.split('#')[0] ?? questionId;
