/**
 * Loop & merge in the definition: which loop ids a looping block's questions are recorded under
 * (`LoopingOptions.Static` keys, or the choices of the question a block loops over). A loop's answers are
 * keyed `<loop id>_<value key>` and exported as `<loop id>_<column>` (the real platform's layout).
 */
import { blocksOf, type QsfDocument, questionsOf } from './qsf.js';

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
type Json = any;

/** Looping block id → its loop ids and question ids (in block order). */
export function loopingBlocks(doc: QsfDocument): Map<string, { loopIds: string[]; questionIds: string[] }> {
  const out = new Map<string, { loopIds: string[]; questionIds: string[] }>();
  const questions = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
  for (const block of blocksOf(doc) as Json[]) {
    const looping = block.Options?.Looping;
    if (looping !== 'Static' && looping !== 'Question') continue;
    const settings = block.Options.LoopingOptions ?? {};
    let loopIds = Object.keys(settings.Static && typeof settings.Static === 'object' ? settings.Static : {});
    if (looping === 'Question') {
      const source = /^q:\/\/(QID\d+)\//.exec(
        String(settings.Locator ?? settings.ChoiceGroupLocator ?? ''),
      )?.[1];
      const order = source ? questions.get(source)?.ChoiceOrder : undefined;
      if (order) loopIds = order.map(String);
    }
    const questionIds = (block.BlockElements ?? [])
      .filter((e: Json) => e?.Type === 'Question' && e.QuestionID)
      .map((e: Json) => String(e.QuestionID));
    if (loopIds.length > 0) out.set(String(block.ID), { loopIds, questionIds });
  }
  return out;
}
