import { STATUS_CODES } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';

/** `"<code> - <reason phrase>"`, compared as a string by v3 clients (COMPAT.md "Envelope"). */
export function httpStatusText(status: number): string {
  return `${status} - ${STATUS_CODES[status] ?? 'Unknown'}`;
}

export const MetaSchema = Type.Object({
  httpStatus: Type.String(),
  requestId: Type.String(),
  notice: Type.Optional(Type.String()),
});

export interface Meta {
  httpStatus: string;
  requestId: string;
  notice?: string;
}

/** The response schema of a call that answers `{result, meta}`. */
export function Envelope<T extends TSchema>(result: T) {
  return Type.Object({ result, meta: MetaSchema });
}

/** The response schema of a call with nothing to return: `{meta}` alone. */
export const MetaOnlySchema = Type.Object({ meta: MetaSchema });

export function meta(request: FastifyRequest, status = 200, notice?: string): Meta {
  const m: Meta = { httpStatus: httpStatusText(status), requestId: request.id };
  if (notice) m.notice = notice;
  return m;
}

export function ok<T>(request: FastifyRequest, result: T, notice?: string): { result: T; meta: Meta } {
  return { result, meta: meta(request, 200, notice) };
}

export function done(request: FastifyRequest): { meta: Meta } {
  return { meta: meta(request) };
}

/** A created resource's id, the shape every v3 create call answers with (status 200, COMPAT.md). */
export const IdResultSchema = Envelope(Type.Object({ id: Type.String() }));

/** The answer that starts a job in the current spelling (`export-responses`, `import-responses`). */
export const ProgressStartSchema = Envelope(
  Type.Object({ progressId: Type.String(), percentComplete: Type.Number(), status: Type.String() }),
);
export const progressStarted = (progressId: string) => ({
  progressId,
  percentComplete: 0.0,
  status: 'inProgress',
});
