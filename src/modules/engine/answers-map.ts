/**
 * Heat map (`QuestionType: HeatMap`, `Selector: Image`) and hot spot (`HotSpot`, `Selector: OnOff`)
 * questions: the image and its regions as the engine reads them from the QSF, and a page's answer to them.
 *
 * No real file or export we have holds either type; the keys read are those public QSF readers write
 * (docs/engine.md): the image is `GraphicID` or `Graphics` (an `IM_…` graphic id or a URL), described by
 * `GraphicsDescription`, else the first image of the question text; the regions are
 * surveys/definition/map-regions.ts's, each placed by its bounding box (a polygon's `Shapes` are not read).
 *
 * Answers, as form fields (value-keys.ts names their columns): a heat map click is `QIDn_1_x` and
 * `QIDn_1_y` (image pixels) and the region it fell in `QIDn` = [region] (recorded `QIDn_<region>` = 1); a
 * hot spot records every region once any is on: `QIDn_<region>` = 1 (on) or 2 (off).
 */
import { mapRegionsOf } from '../surveys/definition/map-regions.js';
import { type Json, num, str } from './qsf-reading.js';
import type { Choice, Question } from './survey-model.js';

export interface MapRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MapSettings {
  /** The image's URL (a Qualtrics graphic URL for an `IM_…` id, resolved to the organisation's graphic). */
  image: string;
  alt: string;
  /** Region geometry by choice id; a choice without one is offered in the list only. */
  regions: Record<string, MapRegion>;
}

type Fields = Record<string, string[]>;

const GRAPHIC_ID = /^IM_[A-Za-z0-9]{15}$/;
const FIRST_IMAGE = /<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>/i;
const ALT = /\balt\s*=\s*["']([^"']*)["']/i;

/** The question's image and regions; an image taken from the question text leaves the text. */
export function toMap(
  payload: Json,
  text: string,
  choices: Choice[],
): { map: MapSettings; text: string; choices: Choice[] } {
  const graphic = str(payload.GraphicID ?? payload.Graphics).trim();
  let image = GRAPHIC_ID.test(graphic)
    ? `https://qualtrics.com/ControlPanel/Graphic.php?IM=${graphic}`
    : graphic;
  let alt = str(payload.GraphicsDescription);
  let rest = text;
  const inText = FIRST_IMAGE.exec(text);
  if (!image && inText?.[1]) {
    image = inText[1];
    alt ||= ALT.exec(inText[0])?.[1] ?? '';
    rest = text.replace(inText[0], '');
  }
  const regions: Record<string, MapRegion> = {};
  const known = new Map(choices.map((c) => [c.id, c]));
  const shown: Choice[] = [];
  for (const spec of mapRegionsOf(payload)) {
    const choice = known.get(spec.id);
    shown.push({
      ...(choice ?? { recode: spec.id, textEntry: false, exclusive: false }),
      id: spec.id,
      text: spec.text,
    });
    const region = geometry(spec.place);
    if (region) regions[spec.id] = region;
  }
  return { map: { image, alt: alt || 'The image to click', regions }, text: rest, choices: shown };
}

function geometry(value: Json): MapRegion | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const x = num(value.X ?? value.x ?? value.Left ?? value.left, Number.NaN);
  const y = num(value.Y ?? value.y ?? value.Top ?? value.top, Number.NaN);
  const width = num(value.Width ?? value.width, Number.NaN);
  const height = num(value.Height ?? value.height, Number.NaN);
  if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return undefined;
  return { x, y, width, height };
}

/** The first shown region holding the point, if any. */
export function regionAt(question: Question, choices: Choice[], x: number, y: number): string | undefined {
  const regions = question.map?.regions ?? {};
  return choices.find((c) => {
    const r = regions[c.id];
    return r !== undefined && x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height;
  })?.id;
}

const first = (form: Fields, key: string) => form[key]?.[0]?.trim() ?? '';

/** A heat map's click (its region found here) or, without one, the region picked from the list. */
export function readHeatMap(question: Question, form: Fields, choices: Choice[]) {
  const id = question.id;
  const rawX = first(form, `${id}_1_x`);
  const rawY = first(form, `${id}_1_y`);
  const offered = new Set(choices.map((c) => c.id));
  if (rawX !== '' && rawY !== '') {
    const x = Number(rawX);
    const y = Number(rawY);
    if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0)
      return { fields: {}, error: 'That point is not on the image.' };
    const fields: Fields = { [`${id}_1_x`]: [String(Math.round(x))], [`${id}_1_y`]: [String(Math.round(y))] };
    const region = regionAt(question, choices, x, y);
    if (region) fields[id] = [region];
    return { fields };
  }
  const picked = first(form, id);
  if (picked === '') return { fields: {} };
  if (!offered.has(picked)) return { fields: {}, error: 'That choice is not offered here.' };
  return { fields: { [id]: [picked] } };
}

/** A hot spot's regions: every shown one 1 (on) or 2 (off), once any is on. */
export function readHotSpot(question: Question, form: Fields, choices: Choice[]) {
  const offered = new Set(choices.map((c) => c.id));
  const on = new Set((form[question.id] ?? []).filter((v) => v !== ''));
  if ([...on].some((v) => !offered.has(v))) return { fields: {}, error: 'That choice is not offered here.' };
  if (on.size === 0) return { fields: {} };
  const fields: Fields = {};
  for (const c of choices) fields[`${question.id}_${c.id}`] = [on.has(c.id) ? '1' : '2'];
  return { fields };
}
