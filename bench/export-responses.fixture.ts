/**
 * The data of the response export benchmark: a 20-question survey (QSF) and N stored responses shaped as
 * the engine records them (values, labels, displayed fields and values, as record-response.ts writes
 * them), inserted in large transactions. Seeding is not what the benchmark measures.
 */
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Insertable, sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { exportJsonOf } from '../src/modules/responses/record-response.js';
import type { ResponsesTable } from '../src/modules/responses/responses.tables.js';
import { displayedValuesOf, labelsOf } from '../src/modules/surveys/definition/response-values.js';
import { surveyForResponses } from '../src/modules/surveys/survey-responses.service.js';

const WORDS = ['salami', 'cats', 'survey', 'export', 'stream', 'Grüße', 'zip', 'rows', 'delicious', 'team'];
const SINGLE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 19, 20];
const TEXTS = [15, 16, 17, 18];

const choices = (n: number, name: string) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), { Display: `${name} ${i + 1}` }]));
const order = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

function question(id: number): Record<string, unknown> {
  const base = { QuestionID: `QID${id}`, DataExportTag: `Q${id}`, QuestionText: `Question ${id}` };
  if (TEXTS.includes(id)) return { ...base, QuestionType: 'TE', Selector: 'SL' };
  if (id === 13)
    return {
      ...base,
      QuestionType: 'Matrix',
      Selector: 'Likert',
      SubSelector: 'SingleAnswer',
      Choices: choices(4, 'Row'),
      ChoiceOrder: order(4),
      Answers: choices(5, 'Point'),
      AnswerOrder: order(5),
    };
  const multi = id === 14;
  return {
    ...base,
    QuestionType: 'MC',
    Selector: multi ? 'MAVR' : 'SAVR',
    SubSelector: 'TX',
    Choices: choices(multi ? 4 : 5, multi ? 'Food' : 'Choice'),
    ChoiceOrder: order(multi ? 4 : 5),
  };
}

/** 20 questions: 14 single-choice, a 4-row matrix, a 4-choice multi-answer, 4 text entries (26 columns). */
export function benchSurvey(): Record<string, unknown> {
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const elements = ids.map((id) => ({ Type: 'Question', QuestionID: `QID${id}` }));
  return {
    SurveyEntry: { SurveyID: 'SV_benchbenchbench', SurveyName: 'Bench', SurveyLanguage: 'EN' },
    SurveyElements: [
      {
        SurveyID: 'SV_benchbenchbench',
        Element: 'FL',
        PrimaryAttribute: 'Survey Flow',
        Payload: { Type: 'Root', FlowID: 'FL_1', Flow: [{ Type: 'Block', ID: 'BL_bench', FlowID: 'FL_2' }] },
      },
      {
        SurveyID: 'SV_benchbenchbench',
        Element: 'BL',
        PrimaryAttribute: 'Survey Blocks',
        Payload: { 0: { Type: 'Default', Description: 'All', ID: 'BL_bench', BlockElements: elements } },
      },
      ...ids.map((id) => ({
        SurveyID: 'SV_benchbenchbench',
        Element: 'SQ',
        PrimaryAttribute: `QID${id}`,
        Payload: question(id),
      })),
    ],
  };
}

function text(seed: number): string {
  const words: string[] = [];
  for (let i = 0; i < 3 + (seed % 8); i++) words.push(WORDS[(seed >> i) % WORDS.length] as string);
  return words.join(seed % 5 === 0 ? ', ' : ' ');
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19).concat('Z');

function answers(i: number): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const q of SINGLE) out[`QID${q}`] = ((i * q) % 5) + 1;
  for (let r = 1; r <= 4; r++) out[`QID13_${r}`] = ((i + r) % 5) + 1;
  for (let c = 1; c <= 4; c++) if ((i >> c) % 2 === 0) out[`QID14_${c}`] = 1;
  for (const q of TEXTS) if ((i + q) % 3 !== 0) out[`QID${q}_TEXT`] = text(i * 31 + q);
  return out;
}

type Survey = NonNullable<Awaited<ReturnType<typeof surveyForResponses>>>;

function responseRow(i: number, survey: Survey, organizationId: string): Insertable<ResponsesTable> {
  const start = 1_600_000_000_000 + i * 37_000;
  const id = `R_${i.toString(36).padStart(15, '0')}`;
  const given = answers(i);
  const values = {
    startDate: iso(start),
    endDate: iso(start + 95_000),
    status: i % 50 === 0 ? 1 : 0,
    ipAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    progress: 100,
    duration: 95,
    finished: 1,
    recordedDate: iso(start + 96_000),
    _recordId: id,
    locationLatitude: null,
    locationLongitude: null,
    distributionChannel: 'anonymous',
    userLanguage: 'EN',
    ...given,
  };
  const stored = { values: JSON.stringify(values), labels: JSON.stringify(labelsOf(survey, values)) };
  return {
    id,
    organization_id: organizationId,
    survey_id: survey.id,
    seq: i + 1,
    status: values.status,
    finished: 1,
    progress: 100,
    duration: 95,
    start_date: values.startDate,
    end_date: values.endDate,
    recorded_date: values.recordedDate,
    ip_address: values.ipAddress,
    user_agent: null,
    user_language: 'EN',
    recipient_id: null,
    distribution_id: null,
    distribution_channel: 'anonymous',
    session_id: null,
    values: stored.values,
    labels: stored.labels,
    displayed_fields: JSON.stringify(Object.keys(given)),
    displayed_values: JSON.stringify(displayedValuesOf(survey, Object.keys(given))),
    embedded_data: '{}',
    updated_at: values.recordedDate,
    ...exportJsonOf(survey, stored),
  };
}

/** Inserts `count` responses: SQLite through one prepared statement, PostgreSQL in multi-row inserts. */
export async function seedResponses(
  database: Db,
  dataDir: string,
  scope: { organizationId: string },
  surveyId: string,
  count: number,
): Promise<void> {
  const survey = await surveyForResponses(database.db, scope, surveyId);
  if (!survey) throw new Error(`survey ${surveyId} not found`);
  const row = (i: number) => responseRow(i, survey, scope.organizationId);
  if (database.engine === 'postgres') {
    for (let from = 0; from < count; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - from) }, (_, k) => row(from + k));
      await database.db.insertInto('responses').values(batch).execute();
    }
    // The test server runs without autovacuum, so the table would have no statistics, which no production
    // database lacks for long: PostgreSQL then sorts every remaining row for each batch of the export.
    await sql`analyze responses`.execute(database.db);
    return;
  }
  const sqlite = new SqliteDatabase(join(dataDir, 'fieldwork.db'));
  try {
    const columns = Object.keys(row(0));
    const insert = sqlite.prepare(
      `insert into responses (${columns.map((c) => `"${c}"`).join(',')}) values (${columns.map((c) => `@${c}`).join(',')})`,
    );
    const insertMany = sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(row(i));
    });
    for (let from = 0; from < count; from += 50_000) insertMany(from, Math.min(count, from + 50_000));
  } finally {
    sqlite.close();
  }
}
