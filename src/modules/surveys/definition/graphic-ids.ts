/**
 * Qualtrics graphic URLs (`https://<dc>.qualtrics.com/ControlPanel/Graphic.php?IM=IM_…`,
 * `…/CP/Graphic.php?IM=…`) named in a definition's texts: the survey pages show the organisation's graphic
 * of that id instead (web/graphic-links.ts, web/rich-text.ts), so they look the ids up before drawing.
 */

/**
 * Every graphic id a text (or several, joined; a definition's JSON will do) may name through a Qualtrics
 * graphic URL. A superset is harmless: rich-text.ts rewrites only URLs that parse.
 */
export function qualtricsGraphicIdsIn(text: string): string[] {
  if (!/graphic\.php/i.test(text)) return [];
  const ids = text.matchAll(/graphic\.php\?[^"'<>\s]*?\bIM=(IM_[A-Za-z0-9]{15})/gi);
  return [...new Set([...ids].map((m) => m[1] as string))];
}

/**
 * The graphic ids a definition's JSON (or a part of it) may show: those its Qualtrics graphic URLs name,
 * and the `IM_…` ids that are a whole value (a heat map's or hot spot's `GraphicID`, which the engine
 * turns into a Qualtrics graphic URL: answers-map.ts).
 */
export function graphicIdsInJson(json: string): string[] {
  const ids = new Set(qualtricsGraphicIdsIn(json));
  for (const match of json.matchAll(/"(IM_[A-Za-z0-9]{15})"/g)) ids.add(match[1] as string);
  return [...ids];
}
