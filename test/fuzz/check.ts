import { STATUS_CODES } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CODES } from '../../src/http/errors.js';
import { Ref } from './json-text.js';
import type { Plan } from './plan.js';

/**
 * What is wrong with an answer, or undefined: a 5xx; an error not in the v3 envelope
 * `{meta: {httpStatus: "<code> - <reason>", error: {errorMessage, errorCode}, requestId}}` (COMPAT.md
 * "Envelope") with no `result`; an errorCode that is not in ERROR_CODES or is documented with another
 * status. Only a 404 may lack an errorCode: the unknown-route answer has none (COMPAT.md).
 */
export function answerProblem(res: LightMyRequestResponse): string | undefined {
  if (res.statusCode >= 500) return `server error ${res.statusCode}`;
  if (res.statusCode < 400) return undefined;
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
    return `error answered as ${String(res.headers['content-type'])}, not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'error body is not JSON';
  }
  return envelopeProblem(body, res.statusCode, res.headers['x-request-id']);
}

function envelopeProblem(body: unknown, status: number, requestIdHeader: unknown): string | undefined {
  const { meta, ...rest } = (body ?? {}) as { meta?: Record<string, unknown> };
  if (!meta || typeof meta !== 'object') return 'error has no meta';
  if (Object.keys(rest).length > 0) return `error has keys beside meta: ${Object.keys(rest).join(', ')}`;
  if (meta.httpStatus !== `${status} - ${STATUS_CODES[status]}`)
    return `meta.httpStatus ${JSON.stringify(meta.httpStatus)} does not match status ${status}`;
  if (typeof meta.requestId !== 'string' || meta.requestId === '' || meta.requestId !== requestIdHeader)
    return 'meta.requestId is missing or differs from x-request-id';
  const error = meta.error as { errorMessage?: unknown; errorCode?: unknown } | undefined;
  if (!error || typeof error.errorMessage !== 'string' || error.errorMessage === '')
    return 'meta.error.errorMessage is missing';
  if (error.errorCode === undefined) return status === 404 ? undefined : `status ${status} without errorCode`;
  const documented = ERROR_CODES[error.errorCode as keyof typeof ERROR_CODES];
  if (!documented) return `errorCode ${JSON.stringify(error.errorCode)} is not in ERROR_CODES`;
  if (documented.status !== status)
    return `errorCode ${String(error.errorCode)} is documented as ${documented.status}, answered with ${status}`;
  return undefined;
}

/** A refused call (4xx) must leave every row as it was: `changed` names the tables whose rows differ. */
export function storeProblem(status: number, changed: string[]): string | undefined {
  return status >= 400 && changed.length > 0
    ? `a refused call changed rows of ${changed.join(', ')}`
    : undefined;
}

/**
 * A call must not go through (2xx) without a valid token, nor when it names a resource of an organisation
 * other than its caller's: in its path (a "foreign" id, or the fuzzer's own ids sent with the other
 * organisation's token) or in its body or query (seeded ids, which are the fuzzer's own organisation's).
 */
export function scopeProblem(plan: Plan, status: number): string | undefined {
  if (status >= 300) return undefined;
  if (plan.auth === 'none' || plan.auth === 'unknown' || plan.auth === 'malformed')
    return `answered ${status} without a valid token`;
  const callerIsForeign = plan.auth === 'foreign';
  const crossing = Object.values(plan.path).some((choice) =>
    callerIsForeign ? choice.from === 'seeded' || choice.from === 'other' : choice.from === 'foreign',
  );
  if (crossing || (callerIsForeign && namesSeededIds(plan)))
    return `answered ${status} to a call naming another organisation's resource`;
  return undefined;
}

/** Whether the plan's body or query holds a seeded id (a `Ref` other than the seeded csv file). */
function namesSeededIds(plan: Plan): boolean {
  const parts = plan.body.kind === 'multipart' ? plan.body.parts.map((p) => p.content) : [];
  const body = plan.body.kind === 'json' ? plan.body.value : undefined;
  return [body, ...parts, ...plan.query.map(([, value]) => value)].some(holdsIdRef);
}

function holdsIdRef(value: unknown): boolean {
  if (value instanceof Ref) return value.kind !== 'exportCsv';
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  return Object.values(value).some(holdsIdRef);
}
