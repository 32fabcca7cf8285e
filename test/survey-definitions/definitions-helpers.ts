import { expect } from 'vitest';
import { startExportWorker, waitForExport } from '../exports/exports-helpers.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

/** The definitions API path of a survey (and of a part of it). */
export const defs = (surveyId: string, part = '') => `/API/v3/survey-definitions/${surveyId}${part}`;

/** A call that must answer 200; answers the body. */
export async function call200(
  t: TestApp,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<ApiResponse['body']> {
  const res = await t.call(token, method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** Runs a response export of the survey (current spelling, uncompressed) to its end; answers the file. */
export async function exportFile(t: TestApp, token: string, surveyId: string, format: 'csv' | 'json') {
  const worker = startExportWorker(t);
  try {
    const base = `/API/v3/surveys/${surveyId}/export-responses`;
    const started = await call200(t, token, 'POST', base, { format, compress: false });
    const { last } = await waitForExport(t, token, `${base}/${started.result.progressId}`);
    expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
    const file = await t.call(token, 'GET', `${base}/${last.body.result.fileId}/file`);
    expect(file.status).toBe(200);
    return file.raw.body;
  } finally {
    await worker.stop();
  }
}

/** The three header rows of a csv export (names, question texts, import ids). */
export const csvHeaders = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(0, 3);

/** A single-answer multiple-choice question body as the real API takes it. */
export function mcQuestion(text: string, choices: string[], extra: Record<string, unknown> = {}) {
  return {
    QuestionText: text,
    QuestionType: 'MC',
    Selector: 'SAVR',
    SubSelector: 'TX',
    Choices: Object.fromEntries(choices.map((c, i) => [String(i + 1), { Display: c }])),
    ChoiceOrder: choices.map((_, i) => String(i + 1)),
    Validation: { Settings: { ForceResponse: 'OFF', Type: 'None' } },
    Configuration: { QuestionDescriptionOption: 'UseText' },
    ...extra,
  };
}

/** Display logic: shown when `choice` of `questionId` is selected. */
export const whenSelected = (questionId: string, choice: string) => ({
  0: {
    0: {
      LogicType: 'Question',
      QuestionID: questionId,
      QuestionIsInLoop: 'no',
      ChoiceLocator: `q://${questionId}/SelectableChoice/${choice}`,
      Operator: 'Selected',
      QuestionIDFromLocator: questionId,
      LeftOperand: `q://${questionId}/SelectableChoice/${choice}`,
      Type: 'Expression',
    },
    Type: 'If',
  },
  Type: 'BooleanExpression',
});
