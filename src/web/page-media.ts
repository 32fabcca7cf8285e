/**
 * What a page's texts need to show their images (rich-text.ts): the origin the respondent reached, and
 * the organisation's graphics that Qualtrics graphic URLs in the texts name. The graphics are read only
 * when a text names one, so a page without such a URL costs no query (decision 0012).
 */
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { originOf } from '../http/origin.js';
import { graphicUrlsOf } from '../modules/graphics/graphics.service.js';
import { qualtricsGraphicIdsIn } from './graphic-links.js';
import type { TextMedia } from './rich-text.js';

/** `texts`: everything the page may draw, as one string (a serialized page view will do). */
export async function pageMedia(
  deps: Deps,
  request: FastifyRequest,
  organizationId: string,
  texts: string,
): Promise<TextMedia> {
  const origin = originOf(request);
  const ids = qualtricsGraphicIdsIn(texts);
  if (ids.length === 0) return { origin };
  return { origin, graphics: await graphicUrlsOf(deps, { organizationId }, ids, origin) };
}
