/**
 * Pick, group and rank (`QuestionType: PGR`, `Selector: DragAndDrop`, SubSelector `Columns`/`NoColumns`):
 * the respondent puts items (choices) into the named `Groups` and orders them within each group. The real
 * exports name its values by group index from 0 (fixtures/exports/sp-xml.xml: `QID17_0_GROUP_1`,
 * `QID17_G0_1_RANK`, `QID17_5_TEXT`): every group's item columns first, then every group's rank columns,
 * then the items' text entries.
 */
import type { QsfQuestion } from './qsf.js';

/** The group names of a pick-group-rank question, in order (a list, or an object keyed by index). */
export function groupsOf(question: QsfQuestion): string[] {
  const raw = question.Groups;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : [];
  return list.map((group, i) => (typeof group === 'string' ? group : `Group ${i + 1}`));
}

/** `QID17_0_GROUP_1`: item 1 is in group 0 (value 1). */
export const groupKey = (qid: string, group: number | string, item: string) =>
  `${qid}_${group}_GROUP_${item}`;
/** `QID17_G0_1_RANK`: item 1's rank within group 0. */
export const rankKey = (qid: string, group: number | string, item: string) => `${qid}_G${group}_${item}_RANK`;
