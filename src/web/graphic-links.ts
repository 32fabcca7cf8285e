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

// The scan that finds the ids a page looks up lives with the definition: the compiled survey runs it once.
export { qualtricsGraphicIdsIn } from '../modules/surveys/definition/graphic-ids.js';
