import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, IdResultSchema, ok } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import * as service from './contact-imports.service.js';
import type { ImportFormat } from './import-files.js';
import { importUploadLimit, type UploadLimit } from './import-uploads.js';
import { ContactImportSchema, toContactImport } from './mailing-lists.schemas.js';
import type { ListRef } from './mailing-lists.service.js';

const tags = ['Contact imports'];
const ContactsArray = Type.Array(Type.Unknown(), { description: 'Contact objects (see docs/contacts.md).' });
const JsonImportBody = Type.Union([ContactsArray, Type.Object({ contacts: ContactsArray })]);
const ImportIdParam = { importId: Type.String({ minLength: 1, maxLength: 100 }) };

interface ImportRoutes {
  /** The list's path, e.g. `/mailinglists/:mailingListId`. */
  base: string;
  params: TSchema & { properties: Record<string, TSchema> };
  ref: (params: Record<string, string>) => ListRef;
}

/**
 * `POST <list>/contactimports` takes a JSON array (or `{contacts}`) as the body, a multipart upload of a
 * CSV or JSON file (field `file`), or a raw `text/csv` body; uploads stream to disk. `GET
 * <list>/contactimports/{importId}` reports progress. Multipart parsing is scoped to these routes.
 * A file, multipart or raw, is cut off at the import limit (`--import-max-bytes`) with 413 FW_VAL_4.
 */
export function registerContactImportRoutes(app: App, deps: Deps, routes: ImportRoutes): void {
  const limit = importUploadLimit(deps.config);
  const { maxBytes } = limit;
  app.register(async (scoped: App) => {
    await scoped.register(multipart, {
      limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 20 },
    });
    scoped.addContentTypeParser('text/csv', (request, payload, done) => {
      // A declared length past the limit is refused before a byte is stored; a chunked body is counted.
      if (Number(request.headers['content-length'] ?? 0) > maxBytes) return done(limit.tooLarge());
      done(null, payload);
    });

    scoped.post(
      `${routes.base}/contactimports`,
      {
        schema: {
          tags,
          summary: 'Import contacts into the list (JSON body, or a CSV or JSON file); answers the import id',
          params: routes.params,
          body: {
            content: {
              'application/json': { schema: JsonImportBody },
              'multipart/form-data': {
                schema: Type.Unknown({ description: 'A `file` part: .csv or .json.' }),
              },
              'text/csv': { schema: Type.Unknown({ description: 'A CSV file with a header row.' }) },
            },
          },
          response: { 200: IdResultSchema },
        },
      },
      async (request) => {
        const ref = routes.ref(request.params as Record<string, string>);
        const source = await importSource(request, limit);
        const id = await service.startImport(deps, request.principal, ref, source);
        return ok(request, { id });
      },
    );

    scoped.get(
      `${routes.base}/contactimports/:importId`,
      {
        schema: {
          tags,
          summary: 'Progress and counts of a contact import, with the reason for each failed row',
          params: Type.Object({ ...routes.params.properties, ...ImportIdParam }),
          response: { 200: Envelope(ContactImportSchema) },
        },
      },
      async (request) => {
        const params = request.params as Record<string, string>;
        const view = await service.getImport(
          deps,
          request.principal,
          routes.ref(params),
          params.importId as string,
        );
        return ok(request, toContactImport(view));
      },
    );
  });
}

async function importSource(request: FastifyRequest, limit: UploadLimit): Promise<service.ImportSource> {
  if (request.isMultipart()) {
    const part = await request.file();
    if (!part) throw ApiError.invalid('file', 'is required (a multipart part holding a CSV or JSON file)');
    const format = formatOf(part.filename, part.mimetype);
    part.file.on('limit', () => part.file.destroy(limit.tooLarge()));
    return { kind: 'file', stream: part.file, format, limit };
  }
  const body = request.body as unknown;
  if (body && typeof (body as NodeJS.ReadableStream).pipe === 'function') {
    return { kind: 'file', stream: body as NodeJS.ReadableStream as never, format: 'csv', limit };
  }
  const contacts = Array.isArray(body) ? body : (body as { contacts?: unknown } | null)?.contacts;
  if (!Array.isArray(contacts))
    throw ApiError.invalid('body', 'must be an array of contacts or {"contacts": [...]}');
  return { kind: 'contacts', contacts };
}

/** A part sent with no file name (`Content-Disposition: form-data; name="file"`) has none: judged by its type. */
function formatOf(filename: string | undefined, mimetype: string): ImportFormat {
  const lower = (filename ?? '').toLowerCase();
  if (lower.endsWith('.csv') || mimetype === 'text/csv') return 'csv';
  if (lower.endsWith('.json') || mimetype === 'application/json') return 'json';
  throw ApiError.of(
    'FW_VAL_3',
    'The import file must be CSV (.csv, text/csv) or JSON (.json, application/json).',
  );
}
