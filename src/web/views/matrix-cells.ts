/**
 * The matrix variations drawn by question-views.ts beside the plain ones: a profile matrix (each row a
 * group of its own scale points), constant sum and rank order cells (a number box, a select of ranks) with
 * a constant sum's column totals, and the marks on text entry cells the question's validation refused.
 * Native controls, each labelled "row: column", so the keyboard and screen readers work.
 */
import { cellProblem } from '../../modules/engine/answers-matrix.js';
import type { Choice, Question } from '../../modules/engine/survey-model.js';
import { type Html, html, plain, rich } from '../html.js';
import type { TextMedia } from '../rich-text.js';

type Values = Record<string, string[]>;
const first = (values: string[] | undefined) => values?.[0] ?? '';
const idOf = (name: string) => `f-${name.replace('#', '-')}`;

/** Profile: each row a group of its own scale points (radio buttons, or a select for `DL`). */
export function profileMatrix(question: Question, rows: Choice[], values: Values, media: TextMedia): Html {
  const groups = rows.map((row) => {
    const name = `${question.id}_${row.id}`;
    const rowId = `${idOf(name)}-row`;
    const points = question.rowAnswers?.[row.id] ?? [];
    const picked = first(values[name]);
    const control = question.dropdown
      ? html`<select id="${idOf(name)}" name="${name}" aria-labelledby="${rowId}"><option value="">Choose…</option>${points.map(
          (p) =>
            html`<option value="${p.id}"${p.id === picked ? html` selected` : ''}>${plain(p.text)}</option>`,
        )}</select>`
      : html`<div class="choices horizontal">${points.map((p) => {
          const id = idOf(`${name}-${p.id}`);
          return html`<div class="choice"><input type="radio" id="${id}" name="${name}" value="${p.id}"${p.id === picked ? html` checked` : ''}><label for="${id}">${rich(p.text, { inline: true, media })}</label></div>`;
        })}</div>`;
    return html`<div class="profile-row" role="group" aria-labelledby="${rowId}"><span class="profile-name" id="${rowId}">${rich(row.text, { inline: true, media })}</span>${control}</div>`;
  });
  return html`<div class="profile">${groups}</div>`;
}

/** The column of a constant sum matrix the page script totals (`data-cs`). */
const sumGroup = (group: Question, column: Choice) => `${group.id}-c${column.id}`;

/** A constant sum matrix's number boxes or a rank order matrix's selects (ranks 1..rows), for one row. */
export function numberCells(group: Question, row: Choice, rowCount: number, values: Values): Html {
  return html`${group.answers.map((a) => {
    const name = `${group.id}_${row.id}_${a.id}`;
    const label = plain(a.text);
    const named = html`id="${idOf(name)}" name="${name}" aria-label="${plain(row.text)}: ${label}"`;
    const value = first(values[name]);
    if (group.kind === 'matrix-rank') {
      const ranks = Array.from({ length: rowCount }, (_, i) => String(i + 1));
      return html`<td data-label="${label}"><select ${named}><option value="">Rank…</option>${ranks.map(
        (n) => html`<option value="${n}"${n === value ? html` selected` : ''}>${n}</option>`,
      )}</select></td>`;
    }
    return html`<td class="text-cell" data-label="${label}"><input type="number" ${named} min="0" step="any" inputmode="decimal" value="${value}" data-cs="${sumGroup(group, a)}"></td>`;
  })}`;
}

/** A constant sum matrix's totals, one per column (kept up to date by the page's script), and the target. */
export function sumFooter(group: Question, rows: Choice[], values: Values): Html {
  if (group.kind !== 'matrix-cs') return html``;
  const target = group.constantSum?.total;
  const totals = group.answers.map((a) => {
    const sum = rows.reduce((t, row) => t + (Number(first(values[`${group.id}_${row.id}_${a.id}`])) || 0), 0);
    const of = target === undefined ? '' : html` of ${String(target)}`;
    return html`<td class="cs-total" data-label="Total: ${plain(a.text)}"><output id="total-${sumGroup(group, a)}" data-cs-total="${sumGroup(group, a)}" aria-live="polite">${String(Math.round(sum * 1e6) / 1e6)}</output>${of}</td>`;
  });
  return html`<tfoot><tr><th scope="row">Total</th>${totals}</tr></tfoot>`;
}

/**
 * A text entry cell's mark when the question's validation refuses what it holds (the page shown again
 * with the answers given): `aria-invalid` on the box and the message beside it, tied by aria-describedby.
 */
export function cellMark(group: Question, name: string, value: string): { attributes: Html; message: Html } {
  const problem = value.trim() === '' ? undefined : cellProblem(group, value);
  if (!problem) return { attributes: html``, message: html`` };
  const id = `err-${idOf(name)}`;
  return {
    attributes: html` aria-invalid="true" aria-describedby="${id}"`,
    message: html`<span class="error cell-error" id="${id}">${problem}</span>`,
  };
}
