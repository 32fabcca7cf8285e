/**
 * Heat map (`QuestionType: HeatMap`, `Selector: Image`) and hot spot (`HotSpot`, `Selector: OnOff` or
 * `LikeDislike`) questions: the image and its regions as the engine reads them from the QSF, and a page's
 * answer to them.
 *
 * No real file or export we have holds either type; the keys read are those public QSF readers write
 * (docs/engine.md): the image is `GraphicID` or `Graphics` (an `IM_…` graphic id or a URL), described by
 * `GraphicsDescription`, else the first image of the question text; the regions are
 * surveys/definition/map-regions.ts's, each a box or polygons (`regionShapes`).
 *
 * Answers, as form fields (value-keys.ts names their columns): a heat map click is `QIDn_1_x` and
 * `QIDn_1_y` (image pixels) and the region it fell in `QIDn` = [region] (recorded `QIDn_<region>` = 1); an
 * on/off hot spot posts the regions on as `QIDn` and records every region once any is on:
 * `QIDn_<region>` = 1 (on) or 2 (off); a like/dislike hot spot posts each region's state as
 * `QIDn_<region>` = 0 (neither), 1 (like) or 2 (dislike) and records the regions liked (1) or disliked (2).
 */
import {
  mapRegionsOf,
  type RegionShape,
  regionShapes,
  shapesHold,
} from '../surveys/definition/map-regions.js';
import { type Json, str } from './qsf-reading.js';
import type { Choice, Question } from './survey-model.js';

export type MapRegion = RegionShape[];

export interface MapSettings {
  /** The image's URL (a Qualtrics graphic URL for an `IM_…` id, resolved to the organisation's graphic). */
  image: string;
  alt: string;
  /** Region shapes by choice id; a choice without any is offered in the list only. */
  regions: Record<string, MapRegion>;
  /** A hot spot whose regions cycle neither → like → dislike (`Selector: LikeDislike`). */
  likeDislike?: boolean;
}

/** A like/dislike hot spot's states as posted and recorded; "neither" is posted 0 and not recorded. */
export const HOT_SPOT_STATES = { neither: '0', like: '1', dislike: '2' } as const;

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
    const shapes = regionShapes(spec.place);
    if (shapes.length > 0) regions[spec.id] = shapes;
  }
  const map: MapSettings = { image, alt: alt || 'The image to click', regions };
  if (str(payload.Selector) === 'LikeDislike') map.likeDislike = true;
  return { map, text: rest, choices: shown };
}

/** The first shown region holding the point, if any. */
export function regionAt(question: Question, choices: Choice[], x: number, y: number): string | undefined {
  const regions = question.map?.regions ?? {};
  return choices.find((c) => shapesHold(regions[c.id] ?? [], x, y))?.id;
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

/** A hot spot's regions: every shown one 1 (on) or 2 (off), once any is on; or liked and disliked ones. */
export function readHotSpot(question: Question, form: Fields, choices: Choice[]) {
  if (question.map?.likeDislike) return readLikeDislike(question, form, choices);
  const offered = new Set(choices.map((c) => c.id));
  const on = new Set((form[question.id] ?? []).filter((v) => v !== ''));
  if ([...on].some((v) => !offered.has(v))) return { fields: {}, error: 'That choice is not offered here.' };
  if (on.size === 0) return { fields: {} };
  const fields: Fields = {};
  for (const c of choices) fields[`${question.id}_${c.id}`] = [on.has(c.id) ? '1' : '2'];
  return { fields };
}

/** Each shown region liked (1) or disliked (2); a region left at "neither" (0 or nothing) is not recorded. */
function readLikeDislike(question: Question, form: Fields, choices: Choice[]) {
  const fields: Fields = {};
  for (const c of choices) {
    const key = `${question.id}_${c.id}`;
    const state = first(form, key);
    if (state === '' || state === HOT_SPOT_STATES.neither) continue;
    if (state !== HOT_SPOT_STATES.like && state !== HOT_SPOT_STATES.dislike)
      return { fields: {}, error: 'That choice is not offered here.' };
    fields[key] = [state];
  }
  return { fields };
}
