import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isBrandAdmin, type Principal } from '../../http/principal.js';
import { jobBlobs } from '../../jobs/job-files.js';
import {
  chosenGraphicId,
  GRAPHIC_MAX_BYTES,
  graphicIdTaken,
  type InspectedUpload,
  inspectUpload,
} from './graphic-upload.js';
import * as store from './graphics.store.js';
import { CONTENT_TYPES } from './image-format.js';

/**
 * The public address of a graphic, for e-mails and survey question text: `<baseUrl>/graphics/<id>`, at
 * the host root beside the API, served to anyone without a token (public-graphics.routes.ts).
 */
export function graphicUrl(baseUrl: string, graphic: { id: string }): string {
  return `${baseUrl.replace(/\/+$/, '')}/graphics/${graphic.id}`;
}

/**
 * The public URLs of those of `graphicIds` that are graphics of the organisation: a survey page shows
 * them where its texts name the graphic by its Qualtrics URL (an imported survey). Others' are left out.
 */
export async function graphicUrlsOf(
  deps: Deps,
  scope: Scope,
  graphicIds: string[],
  baseUrl: string,
): Promise<Map<string, string>> {
  const found = await store.listGraphicIds(deps.db, scope, graphicIds);
  return new Map(found.map((id) => [id, graphicUrl(baseUrl, { id })]));
}

/** Every graphic's bytes live in the BlobStore under its organisation. */
const blobKey = (organizationId: string, graphicId: string) => `${organizationId}/graphics/${graphicId}`;

/**
 * The ids of `graphicIds` that are not graphics of the organisation: what an imported survey's texts name
 * and the researcher has still to upload (with `graphicId`), in the order given.
 */
export async function listMissingGraphics(deps: Deps, scope: Scope, graphicIds: string[]): Promise<string[]> {
  const found = new Set(await store.listGraphicIds(deps.db, scope, graphicIds));
  return graphicIds.filter((id) => !found.has(id));
}

export interface GraphicUploadOptions {
  /** The `graphicId` part as sent (chosenGraphicId checks it): the id to keep instead of a new one. */
  graphicId?: string;
  maxBytes?: number;
}

/**
 * Streams an uploaded file into the BlobStore, refused (and nothing kept) unless its bytes are a PNG,
 * JPEG, GIF or WebP image of at most `maxBytes`; then records it. Answers its id: the `graphicId` asked
 * for, else a new one (`IM_`). An id already taken is refused before any byte is read. The bytes are
 * staged under a key of their own and moved into place only once the row holds the id, so an upload
 * that loses a race for the same id never removes the winner's bytes.
 */
export async function uploadGraphic(
  deps: Deps,
  principal: Principal,
  file: AsyncIterable<Uint8Array>,
  options: GraphicUploadOptions = {},
): Promise<string> {
  const chosen = chosenGraphicId(options.graphicId);
  if (chosen) await checkGraphicIdFree(deps, principal, chosen);
  const id = chosen ?? newId('IM');
  const staged = `${principal.organizationId}/tmp/graphic-${randomUUID()}`;
  const blobs = jobBlobs(deps);
  const inspected: InspectedUpload = { size: 0 };
  // A refused upload fails the save itself: the store keeps no part of it.
  await blobs.save(staged, inspectUpload(file, options.maxBytes ?? GRAPHIC_MAX_BYTES, inspected));
  try {
    if (!inspected.format || !inspected.etag) throw new Error('upload inspection did not complete');
    await store.insertGraphic(deps.db, {
      id,
      organization_id: principal.organizationId,
      owner_id: principal.userId,
      content_type: CONTENT_TYPES[inspected.format],
      size: inspected.size,
      etag: inspected.etag,
      created_at: isoSeconds(deps.clock.now()),
    });
  } catch (error) {
    await blobs.remove(staged);
    // Taken meanwhile, by an upload of the same id that was faster: the same answer as before the bytes.
    if (chosen && isUniqueViolation(error)) await checkGraphicIdFree(deps, principal, chosen);
    throw error;
  }
  try {
    await blobs.rename(staged, blobKey(principal.organizationId, id));
  } catch (error) {
    await store.deleteGraphic(deps.db, principal, id);
    await blobs.remove(staged);
    throw error;
  }
  return id;
}

/** 409 FW_GRA_3 when a graphic of any organisation has the id (the public URL serves by id alone). */
async function checkGraphicIdFree(deps: Deps, principal: Principal, graphicId: string): Promise<void> {
  const row = await store.findGraphicById(deps.db, graphicId);
  if (row) throw graphicIdTaken(graphicId, row.organization_id === principal.organizationId);
}

/**
 * Deletes the graphic and its bytes; its public URL answers 404 from then on. The uploader and the brand
 * administrators may; another organisation's id is not found. The bytes go first, so a failure midway
 * leaves a row whose URL already answers 404 and a retry that finishes the job.
 */
export async function deleteGraphic(deps: Deps, principal: Principal, graphicId: string): Promise<void> {
  const row = await store.findGraphic(deps.db, principal, graphicId);
  if (!row) throw graphicNotFound(graphicId);
  if (!isBrandAdmin(principal) && row.owner_id !== principal.userId) throw ApiError.forbidden();
  await jobBlobs(deps).remove(blobKey(row.organization_id, row.id));
  await store.deleteGraphic(deps.db, principal, graphicId);
}

export interface PublicGraphic {
  contentType: string;
  size: number;
  etag: string;
  /** Opens the bytes; 404 when they are gone (deleted meanwhile). */
  open(): Promise<Readable>;
}

/** A graphic for its public URL, by id alone (the link carries nothing else); 404 when there is none. */
export async function findPublicGraphic(deps: Deps, graphicId: string): Promise<PublicGraphic> {
  const row = await store.findGraphicById(deps.db, graphicId);
  if (!row) throw graphicNotFound(graphicId);
  const key = blobKey(row.organization_id, row.id);
  return {
    contentType: row.content_type,
    size: row.size,
    etag: row.etag,
    open: () =>
      jobBlobs(deps)
        .open(key)
        .catch((error: unknown) => {
          throw error instanceof BlobNotFoundError ? graphicNotFound(graphicId) : error;
        }),
  };
}

function graphicNotFound(graphicId: string): ApiError {
  return ApiError.of('FW_GRA_2', `Graphic ${graphicId} not found.`);
}
