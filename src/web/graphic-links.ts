/**
 * Qualtrics graphic URLs in question text (`https://<dc>.qualtrics.com/ControlPanel/Graphic.php?IM=IM_…`,
 * `…/CP/Graphic.php?IM=…`): the page shows the organisation's graphic of that id, when it has one
 * (rich-text.ts), so an imported survey keeps its images without calling the other platform.
 */

const GRAPHIC_ID = /^IM_[A-Za-z0-9]{15}$/;

/** The graphic id a Qualtrics graphic URL names, or undefined for any other URL. */
export function qualtricsGraphicId(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase();
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (host !== 'qualtrics.com' && !host.endsWith('.qualtrics.com')) return undefined;
  if (!/\/graphic\.php$/i.test(parsed.pathname)) return undefined;
  const id = parsed.searchParams.get('IM') ?? '';
  return GRAPHIC_ID.test(id) ? id : undefined;
}

/**
 * Every graphic id a text (or several, joined) may name through a Qualtrics graphic URL: what a page
 * looks up before it is drawn. A superset is harmless: rich-text.ts rewrites only URLs that parse.
 */
export function qualtricsGraphicIdsIn(text: string): string[] {
  if (!/graphic\.php/i.test(text)) return [];
  const ids = text.matchAll(/graphic\.php\?[^"'<>\s]*?\bIM=(IM_[A-Za-z0-9]{15})/gi);
  return [...new Set([...ids].map((m) => m[1] as string))];
}
