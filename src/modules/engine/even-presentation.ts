/**
 * "Evenly present" (issue 13 item 3): a block showing a random subset of its questions
 * (`RandomWithOnlyX` with `Randomization.EvenPresentation`) and a block randomizer presenting a subset of
 * its elements (`EvenPresentation` on the `BlockRandomizer`) give each new session the items presented
 * least often so far, ties in random order, instead of a chance draw. The counts are per survey
 * (`engine_presentation_counts`), moved in the transaction that records a response by what its path
 * presented. The session keeps what it was given (its state's `evenly`), so reloads and the record agree.
 */
import { randomInt } from 'node:crypto';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { Walk } from './flow.js';
import { incrementPresentationCounts, listPresentationCounts } from './presentation-counts.store.js';
import { randomFor, shuffled } from './random.js';
import type { EngineSurvey, FlowNode } from './survey-model.js';

export interface EvenElement {
  /** The block id or the randomizer's flow id. */
  id: string;
  /** The questions of the block, or the randomizer's children (flow ids). */
  items: string[];
  /** How many of them a session is given. */
  count: number;
}

/** The survey's evenly presented elements that present fewer items than they have. */
export function evenElements(survey: EngineSurvey): EvenElement[] {
  const out: EvenElement[] = [];
  for (const block of survey.blocks.values()) {
    const settings = block.randomizeQuestions;
    const items = block.pages.flat();
    if (settings?.even && settings.subset && settings.subset < items.length)
      out.push({ id: block.id, items, count: settings.subset });
  }
  const visit = (nodes: FlowNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'randomizer' && node.even && node.subset > 0 && node.subset < node.flow.length)
        out.push({ id: node.id, items: node.flow.map((child) => child.id), count: node.subset });
      if ('flow' in node) visit(node.flow);
    }
  };
  visit(survey.flow);
  return out;
}

/** Each element's least presented items (ties broken by `random`), in that order. */
export function assignEvenly(
  elements: EvenElement[],
  counts: { elementId: string; itemId: string; presented: number }[],
  random: () => number,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const element of elements) {
    const presented = new Map(
      counts.filter((c) => c.elementId === element.id).map((c) => [c.itemId, c.presented]),
    );
    const times = (item: string) => presented.get(item) ?? 0;
    // Shuffled first, so the stable sort leaves ties in random order.
    const ranked = shuffled(element.items, random).sort((a, b) => times(a) - times(b));
    out[element.id] = ranked.slice(0, element.count);
  }
  return out;
}

/** What a new session of the survey is given, or undefined when nothing is evenly presented. */
export async function evenAssignment(
  db: Queryable,
  scope: Scope,
  survey: EngineSurvey,
  surveyId: string,
): Promise<Record<string, string[]> | undefined> {
  const elements = evenElements(survey);
  if (elements.length === 0) return undefined;
  const counts = await listPresentationCounts(db, scope, surveyId);
  return assignEvenly(elements, counts, randomFor(randomInt(0, 2 ** 31 - 1), 'evenly'));
}

/** Counts what a recorded response's path presented of each evenly presented element (in its transaction). */
export async function countPresentations(
  db: Queryable,
  scope: Scope,
  survey: EngineSurvey,
  surveyId: string,
  walked: Walk,
): Promise<void> {
  const items = evenElements(survey).flatMap((element) =>
    [...new Set(walked.presented.get(element.id) ?? [])].map((itemId) => ({ elementId: element.id, itemId })),
  );
  await incrementPresentationCounts(db, scope, surveyId, items);
}
