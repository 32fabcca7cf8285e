import type { QsfQuestion } from './qsf.js';

/**
 * The regions of a heat map or hot spot question (engine/answers-map.ts reads the rest), shared by the
 * engine and the value keys. No real file we have holds either type; the shape read is what public QSF
 * readers write: `Regions`, a list whose entries name their choice (`ChoiceID`; else region n is "n")
 * with a `Description` and a bounding box `X`/`Y`/`Width`/`Height` in the image's own pixels, or an object
 * keyed by choice id. Without `Regions`, the question's choices are the regions (each placed by its own
 * `Region`). A region naming a choice is labelled by the choice's text, else by its `Description` (a heat
 * map's choice 1 is its click, "X,Y", not a region).
 */
export interface MapRegionSpec {
  id: string;
  text: string;
  /** The QSF entry placing it (read by answers-map.ts), when there is one. */
  place?: Record<string, unknown>;
}

type Loose = Record<string, unknown> | undefined;

export function mapRegionsOf(question: Pick<QsfQuestion, 'Choices' | 'ChoiceOrder'> & { Regions?: unknown }) {
  const choiceText = (id: string) => {
    const display = question.Choices?.[id]?.Display;
    return typeof display === 'string' && display !== '' ? display : undefined;
  };
  const regions = question.Regions;
  // [id, entry, named a choice]
  const listed: [string, Loose, boolean][] = Array.isArray(regions)
    ? regions.map((r: Loose, i) => [String(r?.ChoiceID ?? i + 1), r, r?.ChoiceID !== undefined])
    : regions && typeof regions === 'object'
      ? Object.entries(regions as Record<string, Loose>).map(([id, r]) => [id, r, true])
      : [];
  if (listed.length === 0) {
    return (question.ChoiceOrder ?? []).map(
      (id): MapRegionSpec => ({
        id,
        text: choiceText(id) ?? id,
        place: question.Choices?.[id]?.Region as Loose,
      }),
    );
  }
  return listed.map(([id, place, named], i): MapRegionSpec => {
    const description = typeof place?.Description === 'string' ? place.Description : undefined;
    const text =
      (named ? (choiceText(id) ?? description) : (description ?? choiceText(id))) ?? `Region ${i + 1}`;
    return { id, text, ...(place ? { place } : {}) };
  });
}
