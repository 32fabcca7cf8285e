/**
 * The flow interpreter. It walks the survey flow from the start with the session's answers so far and
 * returns the path of pages a respondent sees (after display logic, branches, randomizers and skip
 * logic) and how the path ends. Walking again from the start on every request keeps the session state
 * tiny (answers, a seed and a page index) and makes the back button and reloads exact: the same answers
 * and seed always give the same path.
 */
import { evaluateLogic, type LogicFacts, parseLocator } from '../surveys/definition/logic.js';
import { randomFor, shuffled } from './random.js';
import { SessionFacts } from './session-facts.js';
import type { Block, Choice, EngineSurvey, FlowNode, Question } from './survey-model.js';

export type Answers = Record<string, Record<string, string[]>>;

export interface WalkInput {
  seed: number;
  answers: Answers;
  /** Embedded data known before the flow runs: URL parameters, the contact's fields. */
  given: Record<string, string>;
}

export interface Page {
  /** Stable name of the page: block id and page number within the block. */
  key: string;
  blockId: string;
  questionIds: string[];
}

export interface Walk {
  pages: Page[];
  /** The end-of-survey message of an EndSurvey element that ended the path, if any. */
  endMessage?: string;
  /** Embedded data after the flow's EmbeddedData elements ran. */
  embedded: Record<string, string>;
  /** Every question shown on the path (for logic on display) */
  displayed: Set<string>;
}

/** Questions the engine can show; the rest are passed over (the import lists them in its notice). */
export const isRunnable = (question: Question | undefined): question is Question =>
  question !== undefined && question.kind !== 'unsupported';

const WITHOUT_CHOICES = new Set(['text', 'essay', 'descriptive', 'timing']);

class Walker {
  readonly pages: Page[] = [];
  readonly displayed = new Set<string>();
  readonly embedded: Record<string, string>;
  ended = false;
  endMessage?: string;
  readonly facts: LogicFacts;

  constructor(
    private readonly survey: EngineSurvey,
    private readonly input: WalkInput,
  ) {
    this.embedded = { ...input.given };
    this.facts = factsFor(survey, input.answers, this.displayed, this.embedded, input.seed);
  }

  run(nodes: FlowNode[]): void {
    for (const node of nodes) {
      if (this.ended) return;
      this.runNode(node);
    }
  }

  private runNode(node: FlowNode): void {
    switch (node.type) {
      case 'block':
        this.runBlock(node.blockId);
        return;
      case 'branch':
        if (evaluateLogic(node.logic, this.facts)) this.run(node.flow);
        return;
      case 'embedded':
        for (const field of node.fields) {
          const value =
            field.value === undefined ? this.input.given[field.name] : pipe(field.value, this.facts);
          if (value !== undefined) this.embedded[field.name] = value;
        }
        return;
      case 'randomizer': {
        const order = shuffled(node.flow, randomFor(this.input.seed, node.id));
        this.run(node.subset > 0 ? order.slice(0, node.subset) : order);
        return;
      }
      case 'group':
        this.run(node.flow);
        return;
      case 'end':
        this.ended = true;
        this.endMessage = node.message;
        return;
    }
  }

  private runBlock(blockId: string): void {
    const block = this.survey.blocks.get(blockId);
    if (!block) return;
    const pages = blockPages(block, this.input.seed);
    for (let index = 0; index < pages.length; index++) {
      const questionIds = (pages[index] ?? []).filter((id) => this.shows(id));
      if (questionIds.length === 0) continue;
      this.pages.push({ key: `${blockId}:${index}`, blockId, questionIds });
      for (const id of questionIds) this.displayed.add(id);
      const skip = this.skipAfter(questionIds);
      if (skip === 'ENDOFSURVEY') {
        this.ended = true;
        return;
      }
      if (skip === 'ENDOFBLOCK') return;
      if (skip) {
        const target = pages.findIndex((page, i) => i > index && page.includes(skip));
        if (target > index) index = target - 1;
      }
    }
  }

  private shows(questionId: string): boolean {
    const question = this.survey.questions.get(questionId);
    if (!isRunnable(question)) return false;
    if (question.displayLogic && !evaluateLogic(question.displayLogic, this.facts)) return false;
    // A question whose every choice is hidden (or carried forward from nothing) has nothing to ask.
    if (!WITHOUT_CHOICES.has(question.kind))
      return visibleChoices(this.survey, question, this.facts, this.input.seed).length > 0;
    return true;
  }

  /** The first skip rule of the page's questions that holds: ENDOFSURVEY, ENDOFBLOCK or a question id. */
  private skipAfter(questionIds: string[]): string | undefined {
    for (const id of questionIds) {
      for (const rule of this.survey.questions.get(id)?.skipLogic ?? []) {
        const logic = { 0: { 0: skipExpression(rule.locator, rule.condition), Type: 'If' } };
        if (evaluateLogic(logic, this.facts)) return rule.destination;
      }
    }
    return undefined;
  }
}

function skipExpression(locator: string, condition: string) {
  const parsed = parseLocator(locator);
  return { LogicType: 'Question', LeftOperand: locator, Operator: condition, QuestionID: parsed?.questionId };
}

/** A block's pages: its page breaks, or with question randomisation a shuffled order cut per page. */
export function blockPages(block: Block, seed: number): string[][] {
  if (!block.randomizeQuestions) return block.pages;
  const order = shuffled(block.pages.flat(), randomFor(seed, block.id));
  const perPage = block.randomizeQuestions.perPage;
  if (perPage <= 0) return [order];
  const pages: string[][] = [];
  for (let i = 0; i < order.length; i += perPage) pages.push(order.slice(i, i + perPage));
  return pages;
}

export function walk(survey: EngineSurvey, input: WalkInput): Walk {
  const walker = new Walker(survey, input);
  walker.run(survey.flow);
  return {
    pages: walker.pages,
    endMessage: walker.endMessage,
    embedded: walker.embedded,
    displayed: walker.displayed,
  };
}

/** The choices a respondent sees, in the order shown: display logic, then randomisation. */
export function visibleChoices(
  survey: EngineSurvey,
  question: Question,
  facts: LogicFacts,
  seed: number,
): Choice[] {
  const shown = choicesOf(survey, question, facts).filter(
    (c) => !c.displayLogic || evaluateLogic(c.displayLogic, facts),
  );
  if (!question.randomize) return shown;
  const order = shuffled(shown, randomFor(seed, question.id));
  const subset = question.randomize.subset;
  const picked = subset && subset > 0 ? order.slice(0, subset) : order;
  // A random subset is shown in the file's own order; full randomisation keeps the shuffle.
  return subset ? shown.filter((c) => picked.includes(c)) : picked;
}

/** A question's own choices, or those carried forward from another question's answer. */
function choicesOf(survey: EngineSurvey, question: Question, facts: LogicFacts): Choice[] {
  const carry = question.carryForward;
  if (!carry) return question.choices;
  const source = survey.questions.get(carry.from)?.choices ?? [];
  // Chosen choices, or the source's rows and items that have an answer (matrix rows, form fields).
  const answered = (c: Choice) =>
    facts.chosenAnswers(carry.from, c.id).length > 0 || facts.itemValue(carry.from, c.id) !== undefined;
  const picked = new Set([...facts.chosenChoices(carry.from), ...source.filter(answered).map((c) => c.id)]);
  return source.filter((c) => picked.has(c.id) === carry.selected);
}

/** The logic's facts about a session: its answers, what the walk has shown so far, its embedded data. */
export function factsFor(
  survey: EngineSurvey,
  answers: Answers,
  displayed: ReadonlySet<string>,
  embedded: Record<string, string>,
  seed: number,
): LogicFacts {
  const facts: LogicFacts = new SessionFacts(survey, answers, displayed, embedded, (question, choiceId) =>
    visibleChoices(survey, question, facts, seed).some((c) => c.id === choiceId),
  );
  return facts;
}

/** Piped text: `${e://Field/name}` becomes the embedded data value (empty when unset). */
export function pipe(text: string, facts: LogicFacts): string {
  return text.replace(/\$\{e:\/\/Field\/([^}]+)\}/g, (_, name: string) => facts.embedded(name) ?? '');
}
