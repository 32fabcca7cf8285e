/**
 * Loop & merge (issue 13 item 2): a block shown once per loop, over a static table of merge fields or over
 * a question's selected, displayed or not selected choices; in random order and "present only N" when the
 * block says so (seeded per session). A loop's answers are kept under `<loop id>_<QID>` and recorded under
 * `<loop id>_<value key>` (`2_QID3_TEXT`), the real platform's export layout.
 */
import type { LogicFacts } from '../surveys/definition/logic.js';
import type { LoopContext } from './piping.js';
import { randomFor, shuffled } from './random.js';
import type { EngineSurvey } from './survey-model.js';

export interface BlockLoop {
  /** Static rows (`LoopingOptions.Static`): loop id → merge fields 1..n. */
  rows: { id: string; fields: string[] }[];
  /** A question's choices to loop over (else the static rows). */
  over?: { questionId: string; group: 'SelectedChoices' | 'DisplayedChoices' | 'NotSelectedChoices' };
  randomize: boolean;
  /** Present only this many loops (0: all). */
  present: number;
}

export interface Loop extends LoopContext {
  /** The loop's id: the static row's key, or the choice's id. */
  id: string;
}

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
type Json = any;

const str = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** `Looping: Static | Question` with its `LoopingOptions`; undefined for a block that does not loop. */
export function toBlockLoop(options: Json): BlockLoop | undefined {
  const looping = str(options?.Looping);
  if (looping !== 'Static' && looping !== 'Question') return undefined;
  const settings = options.LoopingOptions ?? {};
  const table = settings.Static && typeof settings.Static === 'object' ? settings.Static : {};
  const rows = Object.entries(table as Record<string, Json>).map(([id, fields]) => {
    const byNumber = Object.entries(fields && typeof fields === 'object' ? fields : {});
    const values: string[] = [];
    for (const [n, value] of byNumber) values[Number(n) - 1] = str(value);
    return { id, fields: Array.from(values, (v) => v ?? '') };
  });
  const locator = /^q:\/\/(QID\d+)\/ChoiceGroup\/(SelectedChoices|DisplayedChoices|NotSelectedChoices)$/.exec(
    str(settings.Locator ?? settings.ChoiceGroupLocator),
  );
  // The real files write `Randomization: None | All | Subset`, a subset with `TotalRandSubset` beside it
  // ("present only N of the loops", in random order): docs/engine.md "Loop & merge".
  const randomization = str(settings.Randomization);
  const present = randomization === 'Subset' ? Number(settings.TotalRandSubset ?? 0) : 0;
  return {
    rows,
    ...(looping === 'Question' && locator?.[1] && locator[2]
      ? { over: { questionId: locator[1], group: locator[2] as NonNullable<BlockLoop['over']>['group'] } }
      : {}),
    randomize: randomization !== '' && randomization !== 'None' && randomization !== 'false',
    present: Number.isFinite(present) && present > 0 ? Math.floor(present) : 0,
  };
}

/** The loops a respondent goes through, in the order presented. */
export function loopsOf(
  survey: EngineSurvey,
  blockId: string,
  loop: BlockLoop,
  facts: LogicFacts,
  seed: number,
): Loop[] {
  let items: { id: string; fields: string[] }[] = loop.rows;
  if (loop.over) {
    const { questionId, group } = loop.over;
    const choices = survey.questions.get(questionId)?.choices ?? [];
    const chosen = new Set(facts.chosenChoices(questionId));
    const picked = choices.filter((c) =>
      group === 'SelectedChoices'
        ? chosen.has(c.id)
        : group === 'NotSelectedChoices'
          ? !chosen.has(c.id)
          : facts.isChoiceDisplayed(questionId, c.id) === true,
    );
    const merge = new Map(loop.rows.map((r) => [r.id, r.fields]));
    // The choice's own text is field 1 where the merge table leaves it empty.
    items = picked.map((c) => {
      const fields = [...(merge.get(c.id) ?? [])];
      if (!fields[0]) fields[0] = c.text.replace(/<[^>]*>/g, '');
      return { id: c.id, fields };
    });
  }
  if (loop.randomize || loop.present > 0) items = shuffled(items, randomFor(seed, `${blockId}:loops`));
  if (loop.present > 0) items = items.slice(0, loop.present);
  return items.map((item, i) => ({ id: item.id, number: i + 1, fields: item.fields }));
}

/** The session's answers of a question in a loop. */
export const loopAnswerKey = (loopId: string, questionId: string) => `${loopId}_${questionId}`;

/**
 * The answers as logic inside a loop reads them: this loop's answers (`<loop>_QID3`) as the question's own
 * (`QID3`), beside the answers outside loops. An answer given under the question's own id (the page being
 * posted) stays; another loop's answers are not seen.
 */
export function answersInLoop<T>(answers: Record<string, T>, loopId: string): Record<string, T> {
  const prefix = `${loopId}_`;
  const out = { ...answers };
  for (const [key, value] of Object.entries(answers)) {
    const questionId = key.slice(prefix.length);
    if (key.startsWith(prefix) && /^QID[^_]+$/.test(questionId) && !(questionId in answers))
      out[questionId] = value;
  }
  return out;
}
