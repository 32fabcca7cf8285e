/**
 * The matrix-like and ranking types drawn by question-views.ts: matrix text entry cells (a matrix, or a
 * side-by-side text column), constant sum (a number box per item and the running total) and
 * pick-group-rank (per item, a group and a rank within it). Native inputs and selects, each labelled, so
 * the keyboard and screen readers work; the page script keeps the constant sum's total up to date and
 * adds a drag-and-drop board to pick-group-rank that sets its selects (pgr-board.ts).
 */

import type { Choice, Question } from '../../modules/engine/survey-model.js';
import { groupKey, rankKey } from '../../modules/surveys/definition/pick-group-rank.js';
import { type Html, html, plain, rich } from '../html.js';
import type { TextMedia } from '../rich-text.js';
import { cellMark } from './matrix-cells.js';

type Values = Record<string, string[]>;
const first = (values: string[] | undefined) => values?.[0] ?? '';
const idOf = (name: string) => `f-${name.replace('#', '-')}`;

/** One text box per column of a row: `QID1_<row>_<column>`; a Long matrix gets small text areas. */
export function textCells(group: Question, row: Choice, values: Values, column: string): Html {
  return html`${group.answers.map((a) => {
    const name = `${group.id}_${row.id}_${a.id}`;
    const label = plain(a.text);
    // A box the question's validation refused is marked, its message beside it (matrix-cells.ts).
    const mark = cellMark(group, name, first(values[name]));
    const named = html`id="${idOf(name)}" name="${name}" aria-label="${plain(row.text)}: ${column}${label}"${mark.attributes}`;
    const box =
      group.textSize === 'long'
        ? html`<textarea ${named} rows="3">${first(values[name])}</textarea>`
        : html`<input type="text" ${named} value="${first(values[name])}"${group.textSize === 'medium' ? html` size="30"` : ''}>`;
    return html`<td class="text-cell" data-label="${label}">${box}${mark.message}</td>`;
  })}`;
}

/** Constant sum: a number box per item, and the total so far (against the one it must reach). */
export function constantSum(question: Question, choices: Choice[], values: Values, media: TextMedia): Html {
  const target = question.constantSum?.total;
  const sum = choices.reduce((total, c) => total + (Number(first(values[`${question.id}_${c.id}`])) || 0), 0);
  const totalId = `total-${question.id}`;
  const items = choices.map((c) => {
    const name = `${question.id}_${c.id}`;
    return html`<div class="field cs-item"><label for="${idOf(name)}">${rich(c.text, { inline: true, media })}</label><input type="number" id="${idOf(name)}" name="${name}" min="0" step="any" inputmode="decimal" value="${first(values[name])}" data-cs="${question.id}"></div>`;
  });
  const of = target === undefined ? '' : html` of ${String(target)}`;
  return html`<div class="constant-sum">${items}<p class="cs-total">Total: <output id="${totalId}" data-cs-total="${question.id}" aria-live="polite">${String(sum)}</output>${of}</p></div>`;
}

/** Pick, group and rank: per item, the group it goes in (or none) and its rank within that group. */
export function pickGroupRank(question: Question, items: Choice[], values: Values, media: TextMedia): Html {
  const groups = question.groups ?? [];
  const rows = items.map((item) => {
    const group = groups.findIndex((_, g) => values[groupKey(question.id, g, item.id)] !== undefined);
    const rank = group < 0 ? '' : first(values[rankKey(question.id, group, item.id)]);
    const groupName = `${question.id}_${item.id}_GROUP`;
    const rankName = `${question.id}_${item.id}_RANK`;
    const itemId = `pgr-${question.id}-${item.id}`;
    const options = groups.map(
      (name, g) =>
        html`<option value="${String(g)}"${g === group ? html` selected` : ''}>${plain(name)}</option>`,
    );
    const ranks = items.map((_, i) => {
      const n = String(i + 1);
      return html`<option value="${n}"${n === rank ? html` selected` : ''}>${n}</option>`;
    });
    return html`<div class="pgr-item" role="group" aria-labelledby="${itemId}"><span class="pgr-name" id="${itemId}">${rich(item.text, { inline: true, media })}</span>
<label for="${idOf(groupName)}">Group</label><select id="${idOf(groupName)}" name="${groupName}"><option value="">Not placed</option>${options}</select>
<label for="${idOf(rankName)}">Rank in group</label><select id="${idOf(rankName)}" name="${rankName}"><option value="">In this order</option>${ranks}</select></div>`;
  });
  return html`<div class="pgr">${rows}</div>`;
}
