import fc, { type Arbitrary } from 'fast-check';
import { SMALL_QSF } from '../surveys/survey-helpers.js';
import type { IdKind } from './id-kinds.js';
import { Ref } from './json-text.js';
import { email, type Hints, isoDate } from './schema-arbitrary.js';

const ref = (kind: IdKind) => fc.constant(new Ref(kind));

const contact = fc.record(
  {
    firstName: fc.constantFrom('Ada', 'Grace', 'Émilie'),
    email: email(),
    extRef: fc.stringMatching(/^[a-z]{4,8}$/),
  },
  { requiredKeys: ['firstName'] },
);

/**
 * Values a field of that name takes in a call that goes through: seeded ids, known formats and topics,
 * answers to the seeded survey. The schema says "string" for most of them, and a random string would make
 * nearly every "valid" request a 400, leaving the code behind validation untried.
 */
const HINTS: Record<string, Arbitrary<unknown>> = {
  userId: ref('user'),
  ownerId: ref('user'),
  divisionId: ref('division'),
  surveyId: ref('survey'),
  divisionAdmins: fc.array(ref('user'), { maxLength: 2 }),
  format: fc.constantFrom('csv', 'csv2013', 'tsv', 'json', 'ndjson', 'xml', 'spss'),
  publicationUrl: fc.constantFrom('http://127.0.0.1:9/hook', 'https://127.0.0.1:9/hook?x=1'),
  topics: fc.constantFrom(
    '*',
    'surveyengine.completedResponse.*',
    'controlpanel.activateSurvey',
    'surveyengine.completedResponse.SV_aaaaaaaaaaaaaaa',
  ),
  since: isoDate(),
  until: isoDate(),
  startDate: isoDate(),
  endDate: isoDate(),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
  decimalSeparator: fc.constantFrom('.', ','),
  charset: fc.constant('UTF-8'),
  values: fc.constantFrom({}, { QID1: '30', QID3_TEXT: 'First', QID5: 9 }, { QID1: '10', panel: 'winter' }),
  contacts: fc.array(contact, { maxLength: 3 }),
  file: fc.constantFrom(SMALL_QSF, JSON.parse(SMALL_QSF)),
  size: fc.integer({ min: 1, max: 3 }),
  limit: fc.integer({ min: 1, max: 5 }),
  questionIds: fc.array(fc.constantFrom('QID1', 'QID2', 'QID3', 'QID5'), { maxLength: 3 }),
  embeddedDataIds: fc.constant(['panel']),
  email: email(),
  username: fc.stringMatching(/^[a-z]{8,12}$/),
  name: fc.stringMatching(/^[A-Za-z]{3,10}$/),
  sharedKey: fc.constantFrom('k'.repeat(16), 'k'.repeat(32)),
};

export const hints: Hints = (property) => HINTS[property];
