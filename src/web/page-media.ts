/**
 * What a page's texts need to show their images (rich-text.ts): the origin the respondent reached, the
 * organisation's graphics that Qualtrics graphic URLs in the texts name, and the survey version's memo of
 * sanitized texts. Which graphic ids a question may name is known from its compiled version
 * (compiled-survey.ts), so a page costs no scan of its texts, and no query unless its questions name a
 * graphic (decision 0012).
 */
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { originOf } from '../http/origin.js';
import type { Screen } from '../modules/engine/engine.service.js';
import type { PageView } from '../modules/engine/page-view.js';
import { graphicUrlsOf } from '../modules/graphics/graphics.service.js';
import type { PageParts } from '../modules/surveys/compiled-survey.js';
import { qualtricsGraphicIdsIn } from './graphic-links.js';
import type { TextMedia } from './rich-text.js';

type Drawn = Extract<Screen, { kind: 'page' | 'end' }>;

/**
 * The media of a page or an end screen, from the parts of the definition version the session runs (the
 * screen's `parts`).
 */
export async function pageMedia(
  deps: Deps,
  request: FastifyRequest,
  organizationId: string,
  screen: Drawn,
): Promise<TextMedia> {
  const origin = originOf(request);
  const media = { origin, texts: screen.parts.texts };
  // The end shows one message, piped: its own ids.
  const ids =
    screen.kind === 'page'
      ? idsOfPage(screen.parts, screen.view)
      : qualtricsGraphicIdsIn(screen.message ?? '');
  if (ids.length === 0) return media;
  return { ...media, graphics: await graphicUrlsOf(deps, { organizationId }, ids, origin) };
}

/** The graphic ids a page's questions may name. */
function idsOfPage(parts: PageParts, view: PageView): string[] {
  const ids = view.questions.flatMap((q) => parts.graphicIds.get(q.question.id) ?? []);
  return [...new Set(ids)];
}
