import type { Queryable } from '../../deps.js';
import {
  type Availability,
  loadSurveyForTaking,
  type SurveyForTaking,
  surveyAvailability,
} from '../surveys/survey-taking.service.js';
import { type EngineSurvey, toEngineSurvey } from './survey-model.js';

export interface RunnableSurvey {
  taking: SurveyForTaking;
  engine: EngineSurvey;
  availability: Availability;
}

// A survey's definition does not change after it is created, so its engine picture is kept by id
// (bounded, per node, safe to lose). Activation and expiration are read fresh on every request.
const cache = new Map<string, EngineSurvey>();
const CACHE_SIZE = 200;

/** The survey of a link, ready to run, with whether it may be taken now; undefined when there is none. */
export async function loadRunnableSurvey(
  db: Queryable,
  surveyId: string,
  now: Date,
): Promise<RunnableSurvey | undefined> {
  const taking = await loadSurveyForTaking(db, surveyId);
  if (!taking) return undefined;
  return { taking, engine: engineOf(taking), availability: surveyAvailability(taking, now) };
}

function engineOf(taking: SurveyForTaking): EngineSurvey {
  const cached = cache.get(taking.surveyId);
  if (cached) return cached;
  const engine = toEngineSurvey(taking.surveyId, taking.definition);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(taking.surveyId, engine);
  return engine;
}
