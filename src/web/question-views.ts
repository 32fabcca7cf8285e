/**
 * One question as HTML. Every control has a label (a `<label for>`, or the legend of its fieldset, or
 * aria-labelledby naming a matrix row and column), choices are native radio buttons, check boxes and
 * selects so the keyboard works everywhere, and an error is tied to its question by aria-describedby.
 * Form field names are the engine's answer fields (answers.ts): `QID1`, `QID1_3_TEXT`, `QID5_2` ...
 */
import type { QuestionView } from '../modules/engine/page-view.js';
import type { Choice, Question } from '../modules/engine/survey-model.js';
import { type Html, html, plain, rich } from './html.js';
import type { TextMedia } from './rich-text.js';
import { fileQuestion, signatureQuestion, sliderQuestion } from './views/input-views.js';
import { mapQuestion } from './views/map-views.js';
import { numberCells, profileMatrix, sumFooter } from './views/matrix-cells.js';
import { constantSum, pickGroupRank, textCells } from './views/matrix-types.js';

const has = (values: string[] | undefined, value: string) => values?.includes(value) ?? false;
const first = (values: string[] | undefined) => values?.[0] ?? '';
/** HTML ids from field names (`#` of side-by-side columns is not welcome in ids). */
const idOf = (name: string) => `f-${name.replace('#', '-')}`;

export function questionHtml(view: QuestionView, media: TextMedia = {}): Html {
  const { question } = view;
  const inPage = inPageAttributes(view);
  if (question.kind === 'descriptive')
    return html`<div class="descriptive" id="q-${question.id}"${inPage.attributes}>${inPage.marker}${rich(view.text, { media })}</div>`;
  if (question.kind === 'timing' || question.kind === 'meta') return html``;
  const errorId = `err-${question.id}`;
  const message = view.error ?? (view.requested ? 'This question is not answered.' : undefined);
  const error = message ? html`<p class="error" id="${errorId}">${message}</p>` : html``;
  const described = message ? html` aria-describedby="${errorId}"` : html``;
  return html`<fieldset class="q${message ? ' has-error' : ''}" id="q-${question.id}"${described}${inPage.attributes}>${inPage.marker}
<legend class="q-text" id="qt-${question.id}">${rich(view.text, { media })}</legend>
${error}${body(view, media)}
</fieldset>`;
}

/**
 * In-page display logic: a hidden follow-up carries its condition for the script (`data-fw-when`); a shown
 * one says so in the form (`_fw_revealed`), so the page is taken with it.
 */
function inPageAttributes(view: QuestionView): { attributes: Html; marker: Html } {
  if (!view.question.inPage) return { attributes: html``, marker: html`` };
  const when = view.showWhen ? html` data-fw-when="${JSON.stringify(view.showWhen)}"` : html``;
  return {
    attributes: html`${view.hidden ? html` hidden` : html``}${when} data-fw-inpage="${view.question.id}"`,
    marker: view.hidden
      ? html``
      : html`<input type="hidden" name="_fw_revealed" value="${view.question.id}">`,
  };
}

function body(view: QuestionView, media: TextMedia): Html {
  const { question, choices, values } = view;
  switch (question.kind) {
    case 'mc-single':
      return choiceList(question, choices, values, media, 'radio');
    case 'mc-multi':
      return choiceList(question, choices, values, media, 'checkbox');
    case 'nps':
      return html`<div class="nps">${choiceList(question, choices, values, media, 'radio', true)}</div>`;
    case 'dropdown':
      return html`<select id="${idOf(question.id)}" name="${question.id}" aria-labelledby="qt-${question.id}">
<option value="">Choose…</option>${choices.map(
        (c) =>
          html`<option value="${c.id}"${has(values[question.id], c.id) ? html` selected` : ''}>${plain(c.text)}</option>`,
      )}</select>${textEntries(question, choices, values, media)}`;
    case 'text': {
      const numeric = question.validation?.numeric ? html` inputmode="decimal"` : '';
      const name = `${question.id}_TEXT`;
      return html`<input type="text" id="${idOf(name)}" name="${name}" aria-labelledby="qt-${question.id}"${numeric} value="${first(values[name])}">`;
    }
    case 'essay': {
      const name = `${question.id}_TEXT`;
      return html`<textarea id="${idOf(name)}" name="${name}" aria-labelledby="qt-${question.id}" rows="6">${first(values[name])}</textarea>`;
    }
    case 'form':
      return html`${choices.map((c) => labelled(`${question.id}_${c.id}`, c, media, html`<input type="text" id="${idOf(`${question.id}_${c.id}`)}" name="${question.id}_${c.id}" value="${first(values[`${question.id}_${c.id}`])}">`))}`;
    case 'matrix-single':
    case 'matrix-multi':
    case 'matrix-text':
    case 'matrix-cs':
    case 'matrix-rank':
      return matrix(question, [question], choices, values, media);
    case 'matrix-profile':
      return profileMatrix(question, choices, values, media);
    case 'sbs':
      return matrix(
        question,
        question.columns.filter((c) => c.kind !== 'unsupported'),
        choices,
        values,
        media,
      );
    case 'slider':
      return sliderQuestion(question, choices, values, media);
    case 'file':
      return fileQuestion(question, values);
    case 'signature':
      return signatureQuestion(question, values);
    case 'rank': {
      const items = html`${choices.map((c) => rankItem(question, c, choices.length, values, media))}`;
      // Drag and drop: the page's script adds a list to reorder, which sets the selects (rank-board.ts).
      return question.type.startsWith('RO/DND') ? html`<div class="rank-dnd">${items}</div>` : items;
    }
    case 'constant-sum':
      return constantSum(question, choices, values, media);
    case 'pgr':
      return pickGroupRank(question, choices, values, media);
    case 'heatmap':
    case 'hotspot':
      return mapQuestion(question, choices, values, media);
    default:
      return html``;
  }
}

function choiceList(
  question: Question,
  choices: Choice[],
  values: Record<string, string[]>,
  media: TextMedia,
  type: 'radio' | 'checkbox',
  horizontal = question.horizontal,
): Html {
  const items = choices.map((c) => {
    const id = idOf(`${question.id}-${c.id}`);
    const checked = has(values[question.id], c.id) ? html` checked` : '';
    const exclusive = c.exclusive && type === 'checkbox' ? html` data-exclusive` : '';
    const text = c.textEntry ? textEntry(question, c, values) : '';
    return html`<div class="choice"><input type="${type}" id="${id}" name="${question.id}" value="${c.id}"${checked}${exclusive}><label for="${id}">${rich(c.text, { inline: true, media })}</label>${text}</div>`;
  });
  return html`<div class="choices${horizontal ? ' horizontal' : ''}">${items}</div>`;
}

function textEntry(question: Question, choice: Choice, values: Record<string, string[]>): Html {
  const name = `${question.id}_${choice.id}_TEXT`;
  return html`<input type="text" id="${idOf(name)}" name="${name}" aria-label="${plain(choice.text)} (please specify)" value="${first(values[name])}">`;
}

function textEntries(
  question: Question,
  choices: Choice[],
  values: Record<string, string[]>,
  media: TextMedia,
): Html {
  return html`${choices.filter((c) => c.textEntry).map((c) => labelled(`${question.id}_${c.id}_TEXT`, c, media, textEntry(question, c, values)))}`;
}

function labelled(name: string, choice: Choice, media: TextMedia, control: Html): Html {
  return html`<div class="field"><label for="${idOf(name)}">${rich(choice.text, { inline: true, media })}</label>${control}</div>`;
}

/** A matrix (one column group) or a side-by-side question (several): rows are the choices. */
function matrix(
  question: Question,
  groups: Question[],
  rows: Choice[],
  values: Record<string, string[]>,
  media: TextMedia,
): Html {
  const multiColumn = groups.length > 1 || question.kind === 'sbs';
  const head1 = multiColumn
    ? html`<tr><td></td>${groups.map((g) => html`<th scope="colgroup" colspan="${g.dropdown ? 1 : g.answers.length}">${rich(g.text, { inline: true, media })}</th>`)}</tr>`
    : '';
  const head2 = html`<tr><td></td>${groups.map((g) =>
    g.dropdown
      ? html`<th scope="col">${multiColumn ? html`<span class="visually-hidden">${plain(g.text)}</span>` : 'Answer'}</th>`
      : g.answers.map(
          (a) =>
            html`<th scope="col" id="${idOf(`${g.id}-c${a.id}`)}">${rich(a.text, { inline: true, media })}</th>`,
        ),
  )}</tr>`;
  const body = rows.map((row) => {
    const rowId = idOf(`${question.id}-r${row.id}`);
    return html`<tr><th scope="row" id="${rowId}">${rich(row.text, { inline: true, media })}</th>${groups.map((g) => cells(g, row, values, multiColumn ? `${plain(g.text)}: ` : '', rows.length))}</tr>`;
  });
  const foot = groups.length === 1 && groups[0] ? sumFooter(groups[0], rows, values) : '';
  return html`<table class="matrix"><thead>${head1}${head2}</thead><tbody>${body}</tbody>${foot}</table>`;
}

function cells(
  group: Question,
  row: Choice,
  values: Record<string, string[]>,
  column: string,
  rowCount: number,
): Html {
  if (group.kind === 'matrix-cs' || group.kind === 'matrix-rank')
    return numberCells(group, row, rowCount, values);
  const name = `${group.id}_${row.id}`;
  if (group.dropdown) {
    // On phones the column's heading is hidden: its name shows beside the select (data-label).
    const heading = column.replace(/: $/, '');
    return html`<td data-label="${heading}"><select id="${idOf(name)}" name="${name}" aria-label="${plain(row.text)}: ${heading || 'answer'}"><option value="">Choose…</option>${group.answers.map(
      (a) =>
        html`<option value="${a.id}"${has(values[name], a.id) ? html` selected` : ''}>${plain(a.text)}</option>`,
    )}</select></td>`;
  }
  if (group.kind === 'matrix-text') return textCells(group, row, values, column);
  const type = group.kind === 'matrix-multi' ? 'checkbox' : 'radio';
  return html`${group.answers.map((a) => {
    const label = plain(a.text);
    const checked = has(values[name], a.id) ? html` checked` : '';
    return html`<td data-label="${label}"><input type="${type}" id="${idOf(`${name}-${a.id}`)}" name="${name}" value="${a.id}"${checked} aria-label="${plain(row.text)}: ${column}${label}"></td>`;
  })}`;
}

function rankItem(
  question: Question,
  item: Choice,
  count: number,
  values: Record<string, string[]>,
  media: TextMedia,
): Html {
  const name = `${question.id}_${item.id}`;
  const options = Array.from({ length: count }, (_, i) => String(i + 1));
  return labelled(
    name,
    item,
    media,
    html`<select id="${idOf(name)}" name="${name}"><option value="">Rank…</option>${options.map(
      (n) => html`<option value="${n}"${has(values[name], n) ? html` selected` : ''}>${n}</option>`,
    )}</select>`,
  );
}
