import type { QsfQuestion } from './qsf.js';

/**
 * The regions of a heat map or hot spot question (engine/answers-map.ts reads the rest), shared by the
 * engine and the value keys. No real file we have holds either type; the shape read is what public QSF
 * readers write: `Regions`, a list whose entries name their choice (`ChoiceID`; else region n is "n")
 * with a `Description` and a bounding box `X`/`Y`/`Width`/`Height` in the image's own pixels (custom
 * shapes: polygons in `Shapes`, `regionShapes` below), or an object keyed by choice id. Without `Regions`, the question's choices are the regions (each placed by its own
 * `Region`). A region naming a choice is labelled by the choice's text, else by its `Description` (a heat
 * map's choice 1 is its click, "X,Y", not a region).
 */
export interface MapRegionSpec {
  id: string;
  text: string;
  /** The QSF entry placing it (`regionShapes`), when there is one. */
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

/** A heat map or hot spot region's name (its choice's text, else its description): its value label. */
export function regionText(
  question: Parameters<typeof mapRegionsOf>[0],
  regionId: string | undefined,
): string | undefined {
  return mapRegionsOf(question).find((region) => region.id === regionId)?.text;
}

/** A region's place on the image, in the image's own pixels: a box, or polygons (custom shapes). */
export type RegionShape =
  | { kind: 'box'; x: number; y: number; width: number; height: number }
  | { kind: 'polygon'; points: [number, number][] };

const coordinate = (value: unknown): number =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && value.trim() !== ''
      ? Number(value)
      : Number.NaN;

function box(place: Loose): RegionShape | undefined {
  const x = coordinate(place?.X ?? place?.x ?? place?.Left ?? place?.left);
  const y = coordinate(place?.Y ?? place?.y ?? place?.Top ?? place?.top);
  const width = coordinate(place?.Width ?? place?.width);
  const height = coordinate(place?.Height ?? place?.height);
  if (![x, y, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return undefined;
  return { kind: 'box', x, y, width, height };
}

/** A point as `{X, Y}` (any case) or `[x, y]`. */
function point(value: unknown): [number, number] | undefined {
  const [x, y] = Array.isArray(value)
    ? [coordinate(value[0]), coordinate(value[1])]
    : value && typeof value === 'object'
      ? [
          coordinate((value as Loose)?.X ?? (value as Loose)?.x),
          coordinate((value as Loose)?.Y ?? (value as Loose)?.y),
        ]
      : [Number.NaN, Number.NaN];
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : undefined;
}

function polygon(value: unknown): RegionShape | undefined {
  const list = Array.isArray(value)
    ? value
    : Array.isArray((value as Loose)?.Points)
      ? ((value as Loose)?.Points as unknown[])
      : [];
  const points = list.map(point);
  if (points.length < 3 || points.some((p) => p === undefined)) return undefined;
  return { kind: 'polygon', points: points as [number, number][] };
}

/**
 * Where a region lies. Our reading (no real file we have holds a custom shape): a region drawn as a
 * polygon keeps its bounding box (`X`/`Y`/`Width`/`Height`) beside `Shapes`, a list of polygons, each a
 * list of points (`{X, Y}` or `[x, y]`, at least three) or `{Points: [...]}`; the polygons are the
 * region when there is one, else the box. An entry with neither is not on the image (offered in the list
 * only).
 */
export function regionShapes(place: Loose): RegionShape[] {
  const shapes = Array.isArray(place?.Shapes)
    ? place.Shapes
    : Array.isArray(place?.Points)
      ? [place.Points]
      : [];
  const polygons = shapes.map(polygon).filter((s): s is RegionShape => s !== undefined);
  if (polygons.length > 0) return polygons;
  const rect = box(place);
  return rect ? [rect] : [];
}

/** Is the point inside (or on the edge of) the polygon? Even-odd rule, as SVG's `fill-rule: evenodd`. */
function inPolygon(points: [number, number][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i] as [number, number];
    const [xj, yj] = points[j] as [number, number];
    if (onSegment(xi, yi, xj, yj, x, y)) return true;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onSegment(ax: number, ay: number, bx: number, by: number, x: number, y: number): boolean {
  const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
  if (Math.abs(cross) > 1e-9 * Math.max(1, Math.abs(bx - ax) + Math.abs(by - ay))) return false;
  return x >= Math.min(ax, bx) && x <= Math.max(ax, bx) && y >= Math.min(ay, by) && y <= Math.max(ay, by);
}

/** Does the region (any of its shapes) hold the point? Edges count as inside. */
export function shapesHold(shapes: RegionShape[], x: number, y: number): boolean {
  return shapes.some((s) =>
    s.kind === 'box'
      ? x >= s.x && x <= s.x + s.width && y >= s.y && y <= s.y + s.height
      : inPolygon(s.points, x, y),
  );
}
