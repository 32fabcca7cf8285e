/**
 * Incremental exports (`allowContinuation` → `continuationToken`). A token names the export that
 * issued it and a random secret kept in that export's payload; the export's result holds the last
 * recorded-order position (`seq`) it covered. So a token is opaque, cannot be forged or edited (the secret
 * must match), and works only in its organisation (the export is looked up in the caller's scope) and for
 * its survey. Recorded order, not wall-clock time: an export reads only up to the last response settled when
 * it starts (streamResponsesForExport, decision 0012), so "after seq N" misses and doubles nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { randomAlphanumeric } from '../../http/ids.js';
import { getJob } from '../../jobs/jobs.service.js';
import { type ExportPayload, type ExportProgress, RESPONSE_EXPORT_JOB } from './response-export.job.js';

export const newContinuationSecret = () => randomAlphanumeric(32);

export function continuationToken(exportId: string, secret: string): string {
  return Buffer.from(`${exportId}.${secret}`).toString('base64url');
}

function parseToken(token: string): { exportId: string; secret: string } | undefined {
  const match = /^(ES_[A-Za-z0-9]{15})\.([A-Za-z0-9]{32})$/.exec(Buffer.from(token, 'base64url').toString());
  if (!match?.[1] || !match[2]) return undefined;
  // Node decodes base64 leniently (stray characters are dropped): only the exact spelling is a token.
  return continuationToken(match[1], match[2]) === token
    ? { exportId: match[1], secret: match[2] }
    : undefined;
}

const sameSecret = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The token a finished export offers, when it was asked for one. */
export function tokenOf(id: string, payload: ExportPayload, result: ExportProgress | null) {
  if (!payload.continuation || result?.lastSeq === undefined) return undefined;
  return continuationToken(id, payload.continuation.secret);
}

/** Where an export continuing from `token` starts: after this `seq`. 400 naming the field otherwise. */
export async function resumePoint(deps: Deps, scope: Scope, surveyId: string, token: string) {
  const invalid = () => ApiError.invalid('continuationToken', 'is not a token of an export of this survey');
  const parsed = parseToken(token);
  if (!parsed) throw invalid();
  const job = await getJob<ExportProgress>(deps.db, scope, RESPONSE_EXPORT_JOB, parsed.exportId);
  const payload = job?.payload as ExportPayload | undefined;
  const secret = payload?.continuation?.secret;
  if (!job || !payload || !secret || !sameSecret(secret, parsed.secret) || payload.surveyId !== surveyId)
    throw invalid();
  const lastSeq = job.status === 'complete' ? job.result?.lastSeq : undefined;
  if (lastSeq === undefined) throw invalid();
  return lastSeq;
}
