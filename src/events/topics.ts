/**
 * The event topics of spec part 6, and how a subscription's topics string selects them. A subscription
 * names one exact topic, a prefix followed by `.*` (every topic under it), or `*` (everything).
 */
export const FIXED_TOPICS = [
  'controlpanel.activateSurvey',
  'controlpanel.deactivateSurvey',
  'threesixty.nominationCreated',
  'threesixty.nominationRemoved',
  'threesixty.created',
  'threesixty.evaluationStatusChanged',
  'threesixty.reportReady',
  'threesixty.statusChanged',
  'threesixty.person.statusChanged',
] as const;

/** Spec part 6: the completed-response topic ends with the survey id. */
export const COMPLETED_RESPONSE_PREFIX = 'surveyengine.completedResponse.';
const SURVEY_ID = /^SV_[A-Za-z0-9]{15}$/;

export function completedResponseTopic(surveyId: string): string {
  return `${COMPLETED_RESPONSE_PREFIX}${surveyId}`;
}

/** A concrete topic an event can carry. */
export function isEventTopic(topic: string): boolean {
  if ((FIXED_TOPICS as readonly string[]).includes(topic)) return true;
  return (
    topic.startsWith(COMPLETED_RESPONSE_PREFIX) &&
    SURVEY_ID.test(topic.slice(COMPLETED_RESPONSE_PREFIX.length))
  );
}

/** Every prefix a `.*` subscription may name: each dotted prefix of a known topic. */
const WILDCARD_PREFIXES: ReadonlySet<string> = new Set(
  [...FIXED_TOPICS, 'surveyengine.completedResponse.x'].flatMap((topic) => {
    const parts = topic.split('.');
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('.'));
  }),
);

/** Why a subscription's topics string is not acceptable, or undefined when it is. */
export function topicPatternProblem(pattern: string): string | undefined {
  if (pattern === '*' || isEventTopic(pattern)) return undefined;
  if (pattern.endsWith('.*') && WILDCARD_PREFIXES.has(pattern.slice(0, -2))) return undefined;
  if (pattern.startsWith(COMPLETED_RESPONSE_PREFIX))
    return `must end with a survey id (${COMPLETED_RESPONSE_PREFIX}SV_...) or with .*`;
  return 'must be a known topic, a prefix of known topics followed by .*, or *';
}

/** Does a subscription's topics string select this event topic? */
export function topicMatches(pattern: string, topic: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return topic.startsWith(pattern.slice(0, -1));
  return pattern === topic;
}
