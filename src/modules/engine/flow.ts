/**
 * The flow interpreter. It walks the survey flow from the start with the session's answers so far and
 * returns the path of pages a respondent sees (after display logic, branches, randomizers and skip
 * logic) and how the path ends. Walking again from the start on every request keeps the session state
 * tiny (answers, a seed and a page index) and makes the back button and reloads exact: the same answers
 * and seed always give the same path.
 */
import { evaluateLogic, type LogicFacts, parseLocator } from '../surveys/definition/logic.js';
import { answersInLoop, type Loop, loopAnswerKey, loopsOf } from './loops.js';
import { pipeText } from './piping.js';
import { randomFor, shuffled } from './random.js';
import { SessionFacts } from './session-facts.js';
import type { Block, Choice, Ending, EngineSurvey, FlowNode, Question } from './survey-model.js';

export type Answers = Record<string, Record<string, string[]>>;

export interface WalkInput {
  seed: number;
  answers: Answers;
  /** Embedded data known before the flow runs: URL parameters, the contact's fields. */
  given: Record<string, string>;
  /** Date pipes in embedded data set by the flow (default: now). */
  now?: Date;
  /**
   * "Evenly present" elements (a block's question subset, a block randomizer's subset): what the session
   * was given when it started, least presented first (even-presentation.ts), by block or flow id.
   */
  evenly?: Record<string, string[]>;
}

export interface Page {
  /** Stable name of the page: block id and page number within the block. */
  key: string;
  blockId: string;
  questionIds: string[];
  /** Embedded data as set when the flow reached this page (what its piped text shows). */
  embedded: Record<string, string>;
  /** The loop & merge loop the page is in. */
  loop?: Loop;
  /** In-page questions of the page whose condition does not hold (yet): on the page, hidden. */
  hidden: string[];
}

export interface Walk {
  pages: Page[];
  /** How the path ends: the EndSurvey element's own ending, else the survey options'. */
  ending: Ending;
  /** Embedded data after the flow's EmbeddedData elements ran. */
  embedded: Record<string, string>;
  /** Every question shown on the path (for logic on display) */
  displayed: Set<string>;
  /** What the response records, in order: question ids, and `<loop>_<QID>` for a loop's questions. */
  shown: string[];
  /** What the path presented of each randomizer and randomized block: flow ids, question ids. */
  presented: Map<string, string[]>;
}

/** Questions the engine can show; the rest are passed over (the import lists them in its notice). */
export const isRunnable = (question: Question | undefined): question is Question =>
  question !== undefined && question.kind !== 'unsupported';

const WITHOUT_CHOICES = new Set(['text', 'essay', 'descriptive', 'timing', 'meta', 'file', 'signature']);

class Walker {
  readonly pages: Page[] = [];
  readonly displayed = new Set<string>();
  readonly shown: string[] = [];
  readonly presented = new Map<string, string[]>();
  readonly embedded: Record<string, string>;
  ended = false;
  ending: Ending;
  /** A block listed again in the flow is shown once, where it first comes (as the real platform does). */
  private readonly blocksRun = new Set<string>();
  /** The facts logic reads: the session's, or inside a loop the loop's (its answers, its fields). */
  facts: LogicFacts;
  private readonly sessionFacts: LogicFacts;

  constructor(
    private readonly survey: EngineSurvey,
    private readonly input: WalkInput,
  ) {
    this.embedded = { ...input.given };
    this.ending = survey.ending;
    this.facts = factsFor(survey, input.answers, this.displayed, this.embedded, input.seed);
    this.sessionFacts = this.facts;
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
            field.value === undefined
              ? this.input.given[field.name]
              : pipeText(field.value, {
                  facts: this.facts,
                  question: (id) => this.survey.questions.get(id),
                  seed: this.input.seed,
                  place: `${node.id}/${field.name}`,
                  now: this.input.now ?? new Date(),
                });
          if (value !== undefined) this.embedded[field.name] = value;
        }
        return;
      case 'randomizer': {
        const order = shuffled(node.flow, randomFor(this.input.seed, node.id));
        const given = node.even ? this.input.evenly?.[node.id] : undefined;
        const picked = given
          ? given.flatMap((id) => node.flow.filter((child) => child.id === id))
          : node.subset > 0
            ? order.slice(0, node.subset)
            : order;
        this.presented.set(
          node.id,
          picked.map((child) => child.id),
        );
        this.run(picked);
        return;
      }
      case 'group':
        this.run(node.flow);
        return;
      case 'end':
        this.ended = true;
        this.ending = node.ending ?? this.survey.ending;
        return;
    }
  }

  private runBlock(blockId: string): void {
    const block = this.survey.blocks.get(blockId);
    if (!block || this.blocksRun.has(blockId)) return;
    this.blocksRun.add(blockId);
    const pages = blockPages(block, this.input.seed, this.input.evenly?.[blockId]);
    if (!block.loop) {
      this.runPages(blockId, pages);
      return;
    }
    for (const loop of loopsOf(this.survey, blockId, block.loop, this.facts, this.input.seed)) {
      // Logic inside the loop reads this loop's answers and merge fields.
      const { survey, input } = this;
      this.facts = factsFor(
        survey,
        answersInLoop(input.answers, loop.id),
        this.displayed,
        this.embedded,
        input.seed,
        loop,
      );
      this.runPages(blockId, pages, loop);
      this.facts = this.sessionFacts;
      if (this.ended) return;
    }
  }

  private runPages(blockId: string, pages: string[][], loop?: Loop): void {
    for (let index = 0; index < pages.length; index++) {
      const candidates = (pages[index] ?? []).filter((id) => this.shows(id) || this.hiddenInPage(id));
      const hidden = candidates.filter((id) => !this.shows(id));
      const questionIds = candidates.filter((id) => !hidden.includes(id));
      if (questionIds.length === 0) continue;
      const key = loop ? `${blockId}:L${loop.id}:${index}` : `${blockId}:${index}`;
      const embedded = { ...this.embedded };
      const page: Page = {
        key,
        blockId,
        questionIds: candidates,
        embedded,
        hidden,
        ...(loop ? { loop } : {}),
      };
      this.pages.push(page);
      for (const id of questionIds) this.displayed.add(id);
      if (this.survey.blocks.get(blockId)?.randomizeQuestions)
        this.presented.set(blockId, [...(this.presented.get(blockId) ?? []), ...questionIds]);
      this.shown.push(...pageEntries(page));
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

  /** An in-page question whose condition does not hold yet: on its page, hidden until it does. */
  private hiddenInPage(questionId: string): boolean {
    const question = this.survey.questions.get(questionId);
    if (!isRunnable(question) || !question.inPage || !question.displayLogic) return false;
    const hiddenLogic = { ...question, displayLogic: undefined };
    return WITHOUT_CHOICES.has(question.kind)
      ? true
      : visibleChoices(this.survey, hiddenLogic, this.facts, this.input.seed).length > 0;
  }

  private shows(questionId: string): boolean {
    const question = this.survey.questions.get(questionId);
    if (!isRunnable(question)) return false;
    if (question.displayLogic && !evaluateLogic(question.displayLogic, this.facts)) return false;
    // A question whose every choice is hidden (or carried forward from nothing) has nothing to ask.
    if (
      question.carryAnswers &&
      answersShown(this.survey, question, this.facts, this.input.seed).length === 0
    )
      return false;
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

/**
 * A block's pages: its page breaks, or with question randomisation the questions in a random order (all,
 * a subset, or an advanced template of fixed questions and random slots) cut into pages of `perPage`.
 * Seeded by the session and the block, so a reload shows the same order.
 */
export function blockPages(block: Block, seed: number, evenly?: string[]): string[][] {
  const settings = block.randomizeQuestions;
  if (!settings) return block.pages;
  const random = randomFor(seed, block.id);
  const all = block.pages.flat();
  let order: string[];
  if (settings.advanced) {
    const { fixed, subsetOf, subsetCount, hidden } = settings.advanced;
    const shuffledAll = shuffled(settings.advanced.random, random);
    const subset = shuffled(subsetOf, random).slice(0, subsetCount > 0 ? subsetCount : subsetOf.length);
    order = fixed.flatMap((slot) => {
      if (slot === '{~Randomize~}') return shuffledAll.splice(0, 1);
      if (slot === '{~SubSet~}') return subset.splice(0, 1);
      return [slot];
    });
    order.push(...shuffledAll);
    const skip = new Set(hidden);
    order = order.filter((id) => !skip.has(id));
  } else if (settings.even && evenly) {
    // "Evenly present": the subset the session was given when it started, in random order.
    order = shuffled(
      evenly.filter((id) => all.includes(id)),
      random,
    );
  } else {
    order = shuffled(all, random);
    if (settings.subset && settings.subset > 0) order = order.slice(0, settings.subset);
  }
  const perPage = settings.perPage;
  if (perPage <= 0) return [order];
  const pages: string[][] = [];
  for (let i = 0; i < order.length; i += perPage) pages.push(order.slice(i, i + perPage));
  return pages;
}

/** What a page records: its shown questions (not hidden in-page ones), a loop's as `<loop>_<QID>`. */
export const pageEntries = (page: Page): string[] =>
  page.questionIds
    .filter((id) => !page.hidden.includes(id))
    .map((id) => (page.loop ? loopAnswerKey(page.loop.id, id) : id));

export function walk(survey: EngineSurvey, input: WalkInput): Walk {
  const walker = new Walker(survey, input);
  walker.run(survey.flow);
  return {
    pages: walker.pages,
    ending: walker.ending,
    embedded: walker.embedded,
    displayed: walker.displayed,
    shown: walker.shown,
    presented: walker.presented,
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

/** A matrix's scale points in the order shown (seeded per session when `AnswerRandomization` says so). */
export function shownAnswers(question: Question, seed: number): Choice[] {
  return question.randomizeAnswers
    ? shuffled(question.answers, randomFor(seed, `${question.id}:answers`))
    : question.answers;
}

/** A matrix's scale points as shown: carried forward (`DynamicAnswers`), then in random order when asked. */
export function answersShown(survey: EngineSurvey, question: Question, facts: LogicFacts, seed: number) {
  const own = question.carryAnswers ? carriedChoices(survey, question.carryAnswers, facts) : question.answers;
  return question.randomizeAnswers ? shuffled(own, randomFor(seed, `${question.id}:answers`)) : own;
}

/** A question's own choices, or those carried forward from another question's. */
function choicesOf(survey: EngineSurvey, question: Question, facts: LogicFacts): Choice[] {
  return question.carryForward ? carriedChoices(survey, question.carryForward, facts) : question.choices;
}

/**
 * The source's choices a carry-forward takes, in the source's order: all, those selected or not (chosen
 * choices, or rows and items that have an answer: matrix rows, form fields), or those the respondent was
 * shown or not (`DisplayedChoices`: after the source's display logic and random subset).
 */
function carriedChoices(
  survey: EngineSurvey,
  carry: NonNullable<Question['carryForward']>,
  facts: LogicFacts,
) {
  const source = survey.questions.get(carry.from)?.choices ?? [];
  switch (carry.mode) {
    case 'AllChoices':
      return source;
    case 'DisplayedChoices':
    case 'NotDisplayedChoices': {
      const displayed = carry.mode === 'DisplayedChoices';
      return source.filter((c) => facts.isChoiceDisplayed(carry.from, c.id) === displayed);
    }
    default: {
      const answered = (c: Choice) =>
        facts.chosenAnswers(carry.from, c.id).length > 0 || facts.itemValue(carry.from, c.id) !== undefined;
      const picked = new Set([
        ...facts.chosenChoices(carry.from),
        ...source.filter(answered).map((c) => c.id),
      ]);
      return source.filter((c) => picked.has(c.id) === (carry.mode === 'SelectedChoices'));
    }
  }
}

/** The logic's facts about a session: its answers, what the walk has shown so far, its embedded data. */
export function factsFor(
  survey: EngineSurvey,
  answers: Answers,
  displayed: ReadonlySet<string>,
  embedded: Record<string, string>,
  seed: number,
  loop?: Loop,
): LogicFacts {
  const facts: LogicFacts = new SessionFacts(
    survey,
    answers,
    displayed,
    embedded,
    (question, choiceId) => visibleChoices(survey, question, facts, seed).some((c) => c.id === choiceId),
    loop,
  );
  return facts;
}

/** The facts of one page: in a loop, that loop's answers and merge fields (as the walk read them). */
export function pageFacts(
  survey: EngineSurvey,
  answers: Answers,
  walked: Walk,
  page: Page,
  seed: number,
): LogicFacts {
  const own = page.loop ? answersInLoop(answers, page.loop.id) : answers;
  return factsFor(survey, own, walked.displayed, page.embedded, seed, page.loop);
}
