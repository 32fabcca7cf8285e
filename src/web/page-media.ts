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
import type { RunnableSurvey } from '../modules/engine/engine-survey.js';
import type { PageView } from '../modules/engine/page-view.js';
import { graphicUrlsOf } from '../modules/graphics/graphics.service.js';
import type { PageParts } from '../modules/surveys/compiled-survey.js';
import { loadSurveyForTaking } from '../modules/surveys/survey-taking.service.js';
import { qualtricsGraphicIdsIn } from './graphic-links.js';
import type { TextMedia } from './rich-text.js';

type Drawn = Extract<Screen, { kind: 'page' | 'end' }>;

/** The media of a page or an end screen of a session of `run`. */
export async function pageMedia(
  deps: Deps,
  request: FastifyRequest,
  run: RunnableSurvey,
  session: { survey_version: number | null },
  screen: Drawn,
): Promise<TextMedia> {
  const origin = originOf(request);
  const parts = await partsOf(deps, run, session);
  const media = { origin, texts: parts.texts };
  // The end shows one message, piped: its own ids.
  const ids =
    screen.kind === 'page' ? idsOfPage(parts, screen.view) : qualtricsGraphicIdsIn(screen.message ?? '');
  if (ids.length === 0) return media;
  const scope = { organizationId: run.taking.organizationId };
  return { ...media, graphics: await graphicUrlsOf(deps, scope, ids, origin) };
}

/**
 * The parts of the definition a session runs (issue 15): the survey's own, or those of the older published
 * version the session started on, as engine-survey.ts runForSession picks it.
 */
async function partsOf(
  deps: Deps,
  run: RunnableSurvey,
  session: { survey_version: number | null },
): Promise<PageParts> {
  const pinned = session.survey_version;
  if (pinned === null || pinned === run.taking.definitionVersion) return run.taking.pages;
  return (await loadSurveyForTaking(deps.db, run.taking.surveyId, pinned))?.pages ?? run.taking.pages;
}

/** The graphic ids a page's questions may name. */
function idsOfPage(parts: PageParts, view: PageView): string[] {
  const ids = view.questions.flatMap((q) => parts.graphicIds.get(q.question.id) ?? []);
  return [...new Set(ids)];
}
