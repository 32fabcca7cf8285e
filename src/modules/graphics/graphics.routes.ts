import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, MetaOnlySchema, ok } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { originOf } from '../../http/origin.js';
import { GRAPHIC_MAX_BYTES, graphicTooLarge } from './graphic-upload.js';
import { GraphicCreatedSchema, GraphicIdParams, UploadBodySchema } from './graphics.schemas.js';
import * as service from './graphics.service.js';

const tags = ['Graphics'];

/**
 * `POST /graphics` (a multipart `file`, streamed to the BlobStore) and `DELETE /graphics/{graphicId}`
 * (spec 4.6). Multipart parsing is scoped to these routes; the public URL is public-graphics.routes.ts.
 */
export function registerGraphicRoutes(app: App, deps: Deps): void {
  app.register(async (scoped: App) => {
    await scoped.register(multipart, {
      limits: { fileSize: GRAPHIC_MAX_BYTES, files: 1, fields: 10, parts: 20 },
    });

    scoped.post(
      '/graphics',
      {
        schema: {
          tags,
          summary: 'Upload a graphic (PNG, JPEG, GIF or WebP, at most 10 MB); answers its id and public URL',
          consumes: ['multipart/form-data'],
          body: { content: { 'multipart/form-data': { schema: UploadBodySchema } } },
          response: { 200: GraphicCreatedSchema },
        },
      },
      async (request) => {
        const id = await service.uploadGraphic(deps, request.principal, await uploadedFile(request));
        return ok(request, { id, url: service.graphicUrl(originOf(request), { id }) });
      },
    );

    scoped.delete(
      '/graphics/:graphicId',
      {
        schema: {
          tags,
          summary: 'Delete a graphic; its public URL answers 404 from then on',
          params: GraphicIdParams,
          response: { 200: MetaOnlySchema },
        },
      },
      async (request) => {
        await service.deleteGraphic(deps, request.principal, request.params.graphicId);
        return done(request);
      },
    );
  });
}

/** The `file` part's bytes, cut off past the limit with 413 FW_VAL_4; text fields are ignored. */
async function uploadedFile(request: FastifyRequest): Promise<AsyncIterable<Uint8Array>> {
  if (!request.isMultipart())
    throw ApiError.of(
      'FW_VAL_3',
      'This call takes a multipart/form-data body with the image as the part `file`.',
    );
  const part = await request.file();
  if (!part) throw ApiError.invalid('file', 'is required (a multipart part holding the image)');
  if (part.fieldname !== 'file')
    throw ApiError.invalid(
      part.fieldname,
      'is not a part this call takes (send the image as the part `file`)',
    );
  const file = part.file;
  file.on('limit', () => file.destroy(graphicTooLarge(GRAPHIC_MAX_BYTES)));
  return (async function* () {
    yield* file;
    // A file cut at the limit may end cleanly before its 'limit' error lands: busboy marks it truncated.
    if (file.truncated) throw graphicTooLarge(GRAPHIC_MAX_BYTES);
  })();
}
