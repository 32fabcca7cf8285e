import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, IdResultSchema, ok, ProgressStartSchema, progressStarted } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { jobFilesDirectory } from '../../jobs/job-files.js';
import type { JobView } from '../../jobs/jobs.service.js';
import { importUploadLimit, saveUpload } from '../contacts/import-uploads.js';
import * as service from './response-imports.service.js';

const tags = ['Response imports'];
const Id = Type.String({ minLength: 1, maxLength: 100 });
const FIELDS = ['surveyId', 'format', 'charset', 'decimalSeparator', 'fileUrl'] as const;

const body = {
  content: {
    'multipart/form-data': {
      schema: Type.Unknown({
        description:
          'Fields surveyId, format (csv|tsv|csv2013), charset (UTF-8), decimalSeparator (. or ,) and the part `file`.',
      }),
    },
    'application/json': {
      schema: Type.Object(Object.fromEntries(FIELDS.map((f) => [f, Type.Optional(Type.String())]))),
    },
  },
};

const ProgressSchema = Type.Object({
  percentComplete: Type.Number(),
  status: Type.String(),
  result: Type.Object({
    added: Type.Integer(),
    failed: Type.Integer(),
    errors: Type.Array(Type.Object({ row: Type.Integer(), message: Type.String() })),
    ignoredColumns: Type.Array(Type.String()),
  }),
  errorMessage: Type.Optional(Type.String({ description: 'Why the import failed.' })),
});

/** The request's fields and the uploaded file (streamed to the job files directory). */
async function importRequest(request: FastifyRequest, deps: Deps): Promise<service.ImportRequest> {
  const fields: service.ImportRequest = {};
  if (!request.isMultipart()) {
    const json = (request.body ?? {}) as Record<string, string | undefined>;
    for (const name of FIELDS) if (json[name] !== undefined) fields[name] = json[name];
    return fields;
  }
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if ((FIELDS as readonly string[]).includes(part.fieldname))
          fields[part.fieldname as (typeof FIELDS)[number]] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || fields.file !== undefined)
        throw ApiError.invalid(part.fieldname, 'is not a file part this call takes (one `file`)');
      // docs/exports.md "Response imports": up to the import limit (`--import-max-bytes`, 1 GiB).
      const limit = importUploadLimit(deps.config);
      part.file.on('limit', () => part.file.destroy(limit.tooLarge()));
      const dir = await jobFilesDirectory(deps.config.dataDir);
      fields.file = await saveUpload(part.file, dir, `responseimport-${randomUUID()}.upload`, limit);
    }
  } catch (error) {
    if (fields.file) await rm(fields.file, { force: true });
    throw error;
  }
  return fields;
}

function progressOf(job: JobView<service.ImportProgress>) {
  const result = job.result;
  return {
    percentComplete: job.percentComplete,
    status: job.status,
    result: {
      added: result?.added ?? 0,
      failed: result?.failed ?? 0,
      errors: result?.errors ?? [],
      ignoredColumns: result?.ignoredColumns ?? [],
    },
    ...(job.errorMessage !== null ? { errorMessage: job.errorMessage } : {}),
  };
}

/**
 * `POST /responseimports` (spec 4.6) and today's `surveys/{id}/import-responses`, with their progress
 * calls. Multipart parsing is scoped to these routes.
 */
export function registerResponseImportRoutes(app: App, deps: Deps): void {
  app.register(async (scoped: App) => {
    await scoped.register(multipart, {
      limits: { fileSize: importUploadLimit(deps.config).maxBytes, files: 1, fields: 10, parts: 20 },
    });

    scoped.post(
      '/responseimports',
      {
        schema: {
          tags,
          summary: 'Import responses from a csv/tsv/csv2013 export file; answers the import id',
          body,
          response: { 200: IdResultSchema },
        },
      },
      async (request) => {
        const id = await service.startImport(deps, request.principal, await importRequest(request, deps));
        return ok(request, { id });
      },
    );

    scoped.get(
      '/responseimports/:importId',
      {
        schema: {
          tags,
          summary: 'Progress of a response import: counts and the reason for each failed row',
          params: Type.Object({ importId: Id }),
          response: { 200: Envelope(ProgressSchema) },
        },
      },
      async (request) =>
        ok(request, progressOf(await service.getImport(deps, request.principal, request.params.importId))),
    );

    scoped.post(
      '/surveys/:surveyId/import-responses',
      {
        schema: {
          tags,
          summary: 'Import responses from a csv/tsv/csv2013 export file; answers its progressId',
          params: Type.Object({ surveyId: Id }),
          body,
          response: { 200: ProgressStartSchema },
        },
      },
      async (request) => {
        const fields = await importRequest(request, deps);
        const id = await service.startImport(deps, request.principal, {
          ...fields,
          surveyId: request.params.surveyId,
        });
        return ok(request, progressStarted(id));
      },
    );

    scoped.get(
      '/surveys/:surveyId/import-responses/:progressId',
      {
        schema: {
          tags,
          summary: 'Progress of a response import of the survey',
          params: Type.Object({ surveyId: Id, progressId: Id }),
          response: { 200: Envelope(ProgressSchema) },
        },
      },
      async (request) => {
        const { surveyId, progressId } = request.params;
        return ok(
          request,
          progressOf(await service.getImport(deps, request.principal, progressId, surveyId)),
        );
      },
    );
  });
}
