import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError, InvalidBlobKeyError } from '../../files/blob-store.js';
import type { App } from '../../http/app-types.js';
import { Envelope, IdResultSchema, ok, ProgressStartSchema, progressStarted } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { originOf } from '../../http/origin.js';
import { limitClass } from '../../http/rate-limit.js';
import { jobBlobs } from '../../jobs/job-files.js';
import type { JobView } from '../../jobs/jobs.service.js';
import { EXPORT_FORMATS } from './formats/export-layout.js';
import type { ExportProgress } from './response-export.job.js';
import * as service from './response-exports.service.js';

const tags = ['Response exports'];
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Ids = (description: string) =>
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10_000, description });

const options = {
  format: Type.String({ description: `One of ${EXPORT_FORMATS.join(', ')}.` }),
  useLabels: Type.Optional(Type.Boolean({ description: 'Answer texts instead of recodes.' })),
  startDate: Type.Optional(Type.String({ description: 'Only responses recorded on or after (ISO 8601).' })),
  endDate: Type.Optional(Type.String({ description: 'Only responses recorded before (ISO 8601).' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'At most this many responses.' })),
  compress: Type.Optional(Type.Boolean({ description: 'false: the bare file instead of a zip.' })),
  timeZone: Type.Optional(Type.String({ description: 'IANA zone of the dates (UTC when absent).' })),
  seenUnansweredRecode: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
  formatDecimalAsComma: Type.Optional(Type.Boolean()),
  newlineReplacement: Type.Optional(Type.String()),
  includeDisplayOrder: Type.Optional(Type.Boolean({ description: 'Display-order columns (_DO_, _ADO_).' })),
  breakoutSets: Type.Optional(Type.Boolean({ description: 'false: one column per multi-answer question.' })),
  decimalSeparator: Type.Optional(Type.String({ description: '"." or ","; "," is formatDecimalAsComma.' })),
  questionIds: Type.Optional(Ids('Only these questions’ columns (QIDs).')),
  embeddedDataIds: Type.Optional(Ids('Only these embedded data fields.')),
  surveyMetadataIds: Type.Optional(Ids('Only these metadata columns (startDate, _recordId, …).')),
  exportResponsesInProgress: Type.Optional(
    Type.Boolean({ description: 'The responses in progress instead of the recorded ones.' }),
  ),
  allowContinuation: Type.Optional(
    Type.Boolean({ description: 'The complete export offers a continuationToken.' }),
  ),
  responseIds: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      minItems: 1,
      maxItems: 10_000,
      description: 'Only these responses (R_…; FS_… with exportResponsesInProgress).',
    }),
  ),
  continuationToken: Type.Optional(
    Type.String({ maxLength: 200, description: 'Only responses recorded after that earlier export.' }),
  ),
};

/** Shared by both spellings' progress answers; `expired` once the file was deleted (docs/exports.md). */
const statusFields = {
  percentComplete: Type.Number(),
  status: Type.String(),
  continuationToken: Type.Optional(Type.String()),
  expiresAt: Type.Optional(Type.String({ description: 'When the file is deleted (ISO 8601).' })),
  expired: Type.Optional(Type.Boolean()),
};

const LegacyStatusSchema = Type.Object({
  ...statusFields,
  file: Type.Optional(Type.String({ description: 'Absolute URL of the file once complete.' })),
});
const CurrentStatusSchema = Type.Object({
  ...statusFields,
  fileId: Type.Optional(Type.String()),
});

/**
 * Everything that can fail happens before the status line: the file is found and opened through the
 * BlobStore (so any node serves it; one deleted by expiry meanwhile is a clean 404, not a 200 with a
 * truncated body) and the header built. The name goes as RFC 6266 `filename*` (UTF-8) with an ASCII
 * `filename` fallback: a Node header takes Latin-1 at most.
 */
async function sendFile(reply: FastifyReply, deps: Deps, file: service.ExportFile) {
  const disposition = contentDisposition(file.fileName);
  const blobs = jobBlobs(deps);
  const gone = () => ApiError.of('FW_EXP_1', 'The export file no longer exists; export again.');
  // An export made before the BlobStore kept a file path, which is no key: that file is gone too.
  const info = await blobs.stat(file.key).catch((error: unknown) => {
    if (error instanceof InvalidBlobKeyError) return undefined;
    throw error;
  });
  if (!info) throw gone();
  const body = await blobs.open(file.key).catch((error: unknown) => {
    throw error instanceof BlobNotFoundError ? gone() : error;
  });
  return reply
    .type(file.contentType)
    .header('content-length', info.size)
    .header('content-disposition', disposition)
    .send(body);
}

const fileUrl = (request: FastifyRequest, id: string) =>
  `${originOf(request)}/API/v3/responseexports/${id}/file`;

/** The legacy three-step spelling (spec 4.5) and today's `surveys/{id}/export-responses` (COMPAT.md). */
export function registerResponseExportRoutes(app: App, deps: Deps): void {
  app.post(
    '/responseexports',
    {
      config: { rateLimit: limitClass('exportStart') },
      schema: {
        tags,
        summary: 'Start a response export (legacy spelling); answers its id',
        body: Type.Object({ surveyId: Id, ...options }),
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const { surveyId, ...rest } = request.body;
      const id = await service.startExport(deps, request.principal, surveyId, rest);
      return ok(request, { id });
    },
  );

  app.get(
    '/responseexports/:exportId',
    {
      config: { rateLimit: limitClass('exportProgress') },
      schema: {
        tags,
        summary: 'Progress of a response export; the file URL once complete',
        params: Type.Object({ exportId: Id }),
        response: { 200: Envelope(LegacyStatusSchema) },
      },
    },
    async (request) => {
      const job = await service.getExport(deps, request.principal, request.params.exportId);
      return ok(request, {
        ...service.presentExportStatus(job, deps.clock.now()),
        ...(job.status === 'complete' ? { file: fileUrl(request, job.id) } : {}),
      });
    },
  );

  app.get(
    '/responseexports/:exportId/file',
    {
      config: { rateLimit: limitClass('exportFile') },
      schema: {
        tags,
        summary: 'Download a complete response export (application/zip, or the bare file)',
        params: Type.Object({ exportId: Id }),
      },
    },
    async (request, reply) =>
      sendFile(reply, deps, await service.exportFile(deps, request.principal, request.params.exportId)),
  );

  app.post(
    '/surveys/:surveyId/export-responses',
    {
      config: { rateLimit: limitClass('exportStart') },
      schema: {
        tags,
        summary: 'Start a response export; answers its progressId',
        params: Type.Object({ surveyId: Id }),
        body: Type.Object(options),
        response: { 200: ProgressStartSchema },
      },
    },
    async (request) => {
      const id = await service.startExport(deps, request.principal, request.params.surveyId, request.body);
      return ok(request, progressStarted(id));
    },
  );

  app.get(
    '/surveys/:surveyId/export-responses/:progressId',
    {
      config: { rateLimit: limitClass('exportProgress') },
      schema: {
        tags,
        summary: 'Progress of a response export; the fileId once complete',
        params: Type.Object({ surveyId: Id, progressId: Id }),
        response: { 200: Envelope(CurrentStatusSchema) },
      },
    },
    async (request) => {
      const { surveyId, progressId } = request.params;
      const job: JobView<ExportProgress> = await service.getExport(
        deps,
        request.principal,
        progressId,
        surveyId,
      );
      return ok(request, {
        ...service.presentExportStatus(job, deps.clock.now()),
        ...(job.status === 'complete' ? { fileId: job.id } : {}),
      });
    },
  );

  app.get(
    '/surveys/:surveyId/export-responses/:fileId/file',
    {
      config: { rateLimit: limitClass('exportFile') },
      schema: {
        tags,
        summary: 'Download a complete response export (application/zip, or the bare file)',
        params: Type.Object({ surveyId: Id, fileId: Id }),
      },
    },
    async (request, reply) => {
      const { surveyId, fileId } = request.params;
      return sendFile(reply, deps, await service.exportFile(deps, request.principal, fileId, surveyId));
    },
  );
}
