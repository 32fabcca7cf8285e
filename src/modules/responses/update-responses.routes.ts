import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, ok, ProgressStartSchema, progressStarted } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import type { JobView } from '../../jobs/jobs.service.js';
import { updatesOfCsv } from './update-responses.csv.js';
import * as service from './update-responses.service.js';

const tags = ['Responses'];
const Id = Type.String({ minLength: 1, maxLength: 100 });
/** A CSV file, raw or in a multipart part: the JSON body's limit (app.ts, 10 MB). */
const CSV_MAX_BYTES = 10 * 1024 * 1024;

const UpdatesBodySchema = Type.Object({
  updates: Type.Array(
    Type.Object({
      responseId: Id,
      embeddedData: Type.Record(
        Type.String({ minLength: 1, maxLength: 200 }),
        Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Null()]),
        { maxProperties: 200 },
      ),
    }),
    { minItems: 1, maxItems: service.MAX_UPDATES },
  ),
  ignoreMissingResponses: Type.Optional(Type.Boolean({ default: false })),
});

const UpdateProgressSchema = Type.Object({
  percentComplete: Type.Number(),
  status: Type.String(),
  result: Type.Object({
    total: Type.Integer(),
    updated: Type.Integer(),
    skipped: Type.Integer(),
    failed: Type.Integer(),
    errors: Type.Array(Type.Object({ responseId: Type.String(), reason: Type.String() })),
  }),
  errorMessage: Type.Optional(Type.String({ description: 'Why the job failed.' })),
});

/** The request's updates: a JSON body, a raw `text/csv` body, or a multipart `file` part holding a CSV. */
async function updateRequest(request: FastifyRequest): Promise<service.UpdateRequest> {
  if (typeof request.body === 'string') return { updates: updatesOfCsv(request.body) };
  if (!request.isMultipart()) return request.body as service.UpdateRequest;
  let csv: string | undefined;
  let ignoreMissingResponses: boolean | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.fieldname === 'ignoreMissingResponses') ignoreMissingResponses = String(part.value) === 'true';
      continue;
    }
    if (part.fieldname !== 'file' || csv !== undefined)
      throw ApiError.invalid(part.fieldname, 'is not a file part this call takes (one `file`)');
    csv = (await part.toBuffer()).toString('utf8');
  }
  if (csv === undefined) throw ApiError.invalid('file', 'is required (a multipart part holding a CSV file)');
  return { updates: updatesOfCsv(csv), ignoreMissingResponses };
}

function progressOf(job: JobView<service.UpdateProgress>) {
  const result = job.result;
  return {
    percentComplete: job.percentComplete,
    status: job.status,
    result: {
      total: result?.total ?? 0,
      updated: result?.updated ?? 0,
      skipped: result?.skipped ?? 0,
      failed: result?.failed ?? 0,
      errors: result?.errors ?? [],
    },
    ...(job.errorMessage !== null ? { errorMessage: job.errorMessage } : {}),
  };
}

/**
 * `POST /v3/surveys/{surveyId}/update-responses` (a job setting embedded data of many responses) and its
 * progress call. CSV and multipart parsing are scoped to these routes.
 */
export function registerUpdateResponsesRoutes(app: App, deps: Deps): void {
  app.register(async (scoped: App) => {
    await scoped.register(multipart, {
      limits: { fileSize: CSV_MAX_BYTES, files: 1, fields: 5, parts: 10 },
    });
    scoped.addContentTypeParser(
      'text/csv',
      { parseAs: 'string', bodyLimit: CSV_MAX_BYTES },
      (_r, body, done) => done(null, body),
    );

    scoped.post(
      '/surveys/:surveyId/update-responses',
      {
        schema: {
          tags,
          summary: 'Set embedded data of many responses, as a job; answers its progressId',
          params: Type.Object({ surveyId: Id }),
          body: {
            content: {
              'application/json': { schema: UpdatesBodySchema },
              'text/csv': {
                schema: Type.String({ description: 'A responseId column, then embedded data fields.' }),
              },
              'multipart/form-data': {
                schema: Type.Unknown({
                  description: 'A `file` part (CSV) and the field ignoreMissingResponses.',
                }),
              },
            },
          },
          response: { 200: ProgressStartSchema },
        },
      },
      async (request) => {
        const { surveyId } = request.params;
        const updates = await updateRequest(request);
        const id = await service.startResponseUpdate(deps, request.principal, surveyId, updates);
        return ok(request, progressStarted(id));
      },
    );

    scoped.get(
      '/surveys/:surveyId/update-responses/:progressId',
      {
        schema: {
          tags,
          summary: 'Progress of a bulk response update: counts, and the reason for each failed update',
          params: Type.Object({ surveyId: Id, progressId: Id }),
          response: { 200: Envelope(UpdateProgressSchema) },
        },
      },
      async (request) => {
        const { surveyId, progressId } = request.params;
        const job = await service.getResponseUpdate(deps, request.principal, surveyId, progressId);
        return ok(request, progressOf(job));
      },
    );
  });
}
