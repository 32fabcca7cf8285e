/**
 * The controls of sliders (tracks, bars, stars), file uploads and signatures (question-views.ts draws the
 * question around them). Every value can be given with native controls alone: a slider's number box (the
 * range handle beside it is the script's), a star's radio button, a file input; a signature is drawn on a
 * canvas by the page's script, or a typed name is written there (keyboard users).
 */
import { NOT_APPLICABLE, type StoredUpload } from '../../modules/engine/answers-input.js';
import type { Choice, Question, SliderSettings } from '../../modules/engine/survey-model.js';
import { type Html, html, plain, rich } from '../html.js';
import type { TextMedia } from '../rich-text.js';

type Values = Record<string, string[]>;

const first = (values: string[] | undefined) => values?.[0] ?? '';
const idOf = (name: string) => `f-${name.replace('#', '-')}`;
/** The form field a page posts to keep a file given before (`_fw_keep_QID5`: the stored upload's JSON). */
export const KEEP_FIELD = '_fw_keep_';

const DEFAULT_SLIDER: SliderSettings = {
  min: 0,
  max: 100,
  decimals: 0,
  style: 'slider',
  step: 1,
  gridLines: 0,
  labels: [],
  showValue: true,
  notApplicable: false,
};

/** Every statement of a slider question, under the scale's labels; the grid lines as the track's ticks. */
export function sliderQuestion(
  question: Question,
  choices: Choice[],
  values: Values,
  media: TextMedia,
): Html {
  const settings = question.slider ?? DEFAULT_SLIDER;
  const labels =
    settings.labels.length > 0 && settings.style !== 'star'
      ? html`<div class="scale-labels" id="sl-${question.id}">${settings.labels.map((l) => html`<span>${rich(l, { inline: true, media })}</span>`)}</div>`
      : '';
  const ticks =
    settings.gridLines > 0 && settings.style !== 'star'
      ? html`<datalist id="ticks-${question.id}">${Array.from({ length: settings.gridLines + 1 }, (_, i) => html`<option value="${settings.min + ((settings.max - settings.min) * i) / settings.gridLines}"></option>`)}</datalist>`
      : '';
  return html`${labels}${ticks}${choices.map((c) =>
    settings.style === 'star'
      ? stars(question, settings, c, values, media)
      : track(question, settings, c, values, media),
  )}`;
}

function track(
  question: Question,
  s: SliderSettings,
  choice: Choice,
  values: Values,
  media: TextMedia,
): Html {
  const name = `${question.id}_${choice.id}`;
  const id = idOf(name);
  const list = s.gridLines > 0 ? html` list="ticks-${question.id}"` : '';
  return html`<div class="field"><label for="${id}">${rich(choice.text, { inline: true, media })} <span class="visually-hidden">(${s.min} to ${s.max})</span></label>
<div class="slider${s.style === 'bar' ? ' bar' : ''}"><input type="range" min="${s.min}" max="${s.max}" step="${s.step}"${list} data-for="${id}" aria-hidden="true" tabindex="-1" hidden>
<input type="number" id="${id}" name="${name}" min="${s.min}" max="${s.max}" step="${s.step}" value="${first(values[name])}"></div>${notApplicable(s, name, values)}</div>`;
}

/** Stars: one radio button per value (a half step too with `StarType: half`), named by their count. */
function stars(
  question: Question,
  s: SliderSettings,
  choice: Choice,
  values: Values,
  media: TextMedia,
): Html {
  const name = `${question.id}_${choice.id}`;
  const count = Math.round(s.max / s.step);
  const points = Array.from({ length: count }, (_, i) => String(Number(((i + 1) * s.step).toFixed(1))));
  return html`<div class="field" role="radiogroup" aria-labelledby="sg-${name}"><span id="sg-${name}">${rich(choice.text, { inline: true, media })}</span>
<div class="stars">${points.map((p) => {
    const id = idOf(`${name}-${p}`);
    const checked = first(values[name]) === p ? html` checked` : '';
    return html`<span class="star"><input type="radio" id="${id}" name="${name}" value="${p}"${checked}><label for="${id}"><span aria-hidden="true">★</span> ${p} ${p === '1' ? 'star' : 'stars'}</label></span>`;
  })}</div>${notApplicable(s, name, values)}</div>`;
}

function notApplicable(s: SliderSettings, name: string, values: Values): Html {
  if (!s.notApplicable) return html``;
  const field = `${name}${NOT_APPLICABLE}`;
  const checked = first(values[field]) === '1' ? html` checked` : '';
  return html`<div class="choice na"><input type="checkbox" id="${idOf(field)}" name="${field}" value="1"${checked}><label for="${idOf(field)}">Not applicable</label></div>`;
}

/** The file the question holds now (given before, or on this page before it was shown again). */
export function storedUpload(question: Question, values: Values): StoredUpload | undefined {
  const id = first(values[`${question.id}_FILE_ID`]);
  if (!id) return undefined;
  return {
    id,
    name: first(values[`${question.id}_FILE_NAME`]),
    size: Number(first(values[`${question.id}_FILE_SIZE`])),
    type: first(values[`${question.id}_FILE_TYPE`]),
  };
}

function kept(question: Question, values: Values, what: string): Html {
  const upload = storedUpload(question, values);
  if (!upload) return html``;
  return html`<p class="hint">${what}: ${upload.name} (${sizeText(upload.size)})</p><input type="hidden" name="${KEEP_FIELD}${question.id}" value="${JSON.stringify(upload)}">`;
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** A file input; its limits said beside it (and as `accept`, which the server checks again). */
export function fileQuestion(question: Question, values: Values): Html {
  const name = `${question.id}_FILE`;
  const { maxBytes, extensions } = question.upload ?? { maxBytes: 0, extensions: [] };
  const accept = extensions.length > 0 ? html` accept="${extensions.map((e) => `.${e}`).join(',')}"` : '';
  const types = extensions.length > 0 ? ` Accepted: ${extensions.join(', ')}.` : '';
  return html`<input type="file" id="${idOf(name)}" name="${name}" aria-labelledby="qt-${question.id}" aria-describedby="hint-${question.id}"${accept}>
<p class="hint" id="hint-${question.id}">At most ${sizeText(maxBytes)}.${types}</p>${kept(question, values, 'Uploaded')}`;
}

/**
 * A canvas the page's script draws on (pointer, mouse or touch) and posts as a PNG (`QID6_SIGNATURE`, a
 * `data:` URL); a typed name is written on it too, for the keyboard. Without the script the canvas is
 * never posted, and the page says so.
 */
export function signatureQuestion(question: Question, values: Values): Html {
  const name = `${question.id}_SIGNATURE`;
  const typed = `${question.id}_SIGNED_NAME`;
  return html`<div class="signature" data-signature="${idOf(name)}">
<canvas width="600" height="200" role="img" aria-label="${plain(question.text)}: signature pad"></canvas>
<input type="hidden" id="${idOf(name)}" name="${name}" value="">
<div class="field"><label for="${idOf(typed)}">Or type your name to sign</label><input type="text" id="${idOf(typed)}" name="${typed}" autocomplete="name" data-sign-as="${idOf(name)}"></div>
<button type="button" class="secondary" data-clear="${idOf(name)}">Clear signature</button>
<noscript><p class="hint">Signing needs JavaScript.</p></noscript></div>${kept(question, values, 'Signed')}`;
}
