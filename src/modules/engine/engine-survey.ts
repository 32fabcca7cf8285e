import type { Queryable } from '../../deps.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import {
  type Availability,
  loadSurveyForTaking,
  type SurveyForTaking,
  surveyAvailability,
} from '../surveys/survey-taking.service.js';
import { parseState } from './session-state.js';
import { type EngineSurvey, toEngineSurvey } from './survey-model.js';
import { inLanguage } from './translations.js';

export interface RunnableSurvey {
  taking: SurveyForTaking;
  /** The survey in `language`: its texts in that language (translations.ts). */
  engine: EngineSurvey;
  availability: Availability;
  /** The language the pages show and the response records (`UserLanguage`): the survey's until a session says. */
  language: string;
}

// The engine's picture of a definition, built once per definition object. The surveys module hands out
// one such object per survey version on a node and drops it when its cache does (decision 0012), so the
// picture needs no invalidation of its own: it is garbage with the definition it was built from.
const models = new WeakMap<QsfDocument, EngineSurvey>();

/**
 * The survey of a link, ready to run, with whether it may be taken now; undefined when there is none.
 * With a session's `definitionVersion`, the published definition the session started on (issue 15).
 */
export async function loadRunnableSurvey(
  db: Queryable,
  surveyId: string,
  now: Date,
  definitionVersion?: number | null,
): Promise<RunnableSurvey | undefined> {
  const taking = await loadSurveyForTaking(db, surveyId, definitionVersion);
  if (!taking) return undefined;
  const engine = engineOf(taking);
  return { taking, engine, availability: surveyAvailability(taking, now), language: engine.language };
}

/**
 * The survey as a session runs it: the definition it started on, whatever was published since (issue 15),
 * in the language the session chose at its start (a session from before translations: the survey's).
 */
export async function runForSession(
  db: Queryable,
  run: RunnableSurvey,
  session: { survey_version: number | null; state: string },
  now: Date,
): Promise<RunnableSurvey> {
  const pinned = session.survey_version;
  const started =
    pinned === null || pinned === run.taking.definitionVersion
      ? run
      : ((await loadRunnableSurvey(db, run.taking.surveyId, now, pinned)) ?? run);
  const language = parseState(session.state).language ?? started.language;
  if (language === started.language) return started;
  return { ...started, engine: inLanguage(started.engine, language), language };
}

function engineOf(taking: SurveyForTaking): EngineSurvey {
  const built = models.get(taking.definition);
  if (built) return built;
  const engine = toEngineSurvey(taking.surveyId, taking.definition);
  models.set(taking.definition, engine);
  return engine;
}
