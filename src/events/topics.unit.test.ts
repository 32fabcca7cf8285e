import { describe, expect, it } from 'vitest';
import { completedResponseTopic, isEventTopic, topicMatches, topicPatternProblem } from './topics.js';

const SURVEY = 'SV_abcdefghij12345';
const completed = completedResponseTopic(SURVEY);

describe('topic matching', () => {
  it('matches an exact topic and nothing else', () => {
    expect(topicMatches('controlpanel.activateSurvey', 'controlpanel.activateSurvey')).toBe(true);
    expect(topicMatches('controlpanel.activateSurvey', 'controlpanel.deactivateSurvey')).toBe(false);
    expect(topicMatches(completed, completed)).toBe(true);
    expect(topicMatches(completed, completedResponseTopic('SV_zzzzzzzzzzzzzzz'))).toBe(false);
  });

  it('matches a completed response under surveyengine.completedResponse.* and surveyengine.*', () => {
    expect(topicMatches('surveyengine.completedResponse.*', completed)).toBe(true);
    expect(topicMatches('surveyengine.*', completed)).toBe(true);
    expect(topicMatches('controlpanel.*', completed)).toBe(false);
  });

  it('matches everything under *', () => {
    for (const topic of [completed, 'threesixty.person.statusChanged', 'controlpanel.activateSurvey'])
      expect(topicMatches('*', topic)).toBe(true);
  });

  it('cuts prefixes at a dot: threesixty.person.* is not threesixty.personnel', () => {
    expect(topicMatches('threesixty.person.*', 'threesixty.person.statusChanged')).toBe(true);
    expect(topicMatches('threesixty.*', 'threesixty.person.statusChanged')).toBe(true);
    expect(topicMatches('threesixty.person.*', 'threesixty.personnel')).toBe(false);
  });
});

describe('subscription topics strings', () => {
  it.each([
    '*',
    'controlpanel.activateSurvey',
    'controlpanel.*',
    'surveyengine.*',
    'surveyengine.completedResponse.*',
    completed,
    'threesixty.*',
    'threesixty.person.*',
    'threesixty.reportReady',
  ])('accepts %s', (pattern) => expect(topicPatternProblem(pattern)).toBeUndefined());

  it.each([
    '',
    'controlpanel',
    'controlpanel.*.x',
    'unknown.*',
    'controlpanel.activate*',
    'surveyengine.completedResponse',
    'surveyengine.completedResponse.SV_short',
    'controlpanel.activateSurvey.*',
    '*.activateSurvey',
  ])('refuses %j', (pattern) => expect(topicPatternProblem(pattern)).toBeTruthy());

  it('knows which topics an event may carry', () => {
    expect(isEventTopic(completed)).toBe(true);
    expect(isEventTopic('surveyengine.completedResponse.*')).toBe(false);
    expect(isEventTopic('threesixty.created')).toBe(true);
    expect(isEventTopic('*')).toBe(false);
  });
});
