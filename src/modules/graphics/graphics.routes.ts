import multipart, { type Multipart } from '@fastify/multipart';
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
        // The body is streamed, never parsed into an object: its schema is for the OpenAPI document, and
        // uploadedFile and the service check the parts. The route has no other input to validate.
        validatorCompiler: () => () => true,
      },
      async (request) => {
        const { file, graphicId } = await uploadedFile(request);
        const id = await service.uploadGraphic(deps, request.principal, file, { graphicId });
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

/**
 * The `file` part's bytes, cut off past the limit with 413 FW_VAL_4, and the text part `graphicId` when
 * it came before them (parts after the file are not read: the file is streamed as it arrives). Other text
 * fields are ignored.
 */
async function uploadedFile(
  request: FastifyRequest,
): Promise<{ file: AsyncIterable<Uint8Array>; graphicId?: string }> {
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
  const graphicId = textField(part.fields.graphicId, 'graphicId');
  const file = part.file;
  file.on('limit', () => file.destroy(graphicTooLarge(GRAPHIC_MAX_BYTES)));
  const bytes = (async function* () {
    yield* file;
    // A file cut at the limit may end cleanly before its 'limit' error lands: busboy marks it truncated.
    if (file.truncated) throw graphicTooLarge(GRAPHIC_MAX_BYTES);
  })();
  return { file: bytes, graphicId };
}

/** A text part's value: sent once, as text (a file under that name, or the name twice, is a 400). */
function textField(field: Multipart | Multipart[] | undefined, name: string): string | undefined {
  if (field === undefined) return undefined;
  if (Array.isArray(field) || field.type !== 'field')
    throw ApiError.invalid(name, 'must be sent once, as a text part before `file`');
  return String(field.value);
}
