import type { IdKind } from './id-kinds.js';
import { preview, type Ref } from './json-text.js';
import type { MultipartBody } from './multipart.js';

/** Where a path parameter's value comes from. */
export type IdChoice =
  /** An id of the parameter's own kind in the fuzzer's organisation. */
  | { from: 'seeded'; pick: number }
  /** The same kind in the other organisation: must be a 404 (or 403), never data. */
  | { from: 'foreign'; pick: number }
  /** A seeded id of another kind. */
  | { from: 'other'; kind: IdKind; pick: number }
  /** A segment as sent on the wire (already percent-encoded, or deliberately not). */
  | { from: 'text'; text: string };

export type Auth = 'admin' | 'participant' | 'foreign' | 'none' | 'unknown' | 'malformed' | 'bearer';

export type Body =
  | { kind: 'none' }
  /** A JSON value (with `Raw` and `Ref` placeholders), cut after `truncate` of its text when set. */
  | { kind: 'json'; value: unknown; contentType: string | undefined; truncate?: number }
  | { kind: 'bytes'; bytes: string | Buffer; contentType: string | undefined }
  | MultipartBody;

/** A request before it meets the seeded ids: what fast-check generates, shrinks and prints. */
export interface Plan {
  variant: 'valid' | 'hostile';
  path: Record<string, IdChoice>;
  /** Query parameters by name; values are written with encodeURIComponent, `Ref`s resolved. */
  query: [string, string | number | boolean | Ref][];
  /** Query text appended verbatim (hostile variants). */
  rawQuery: string;
  auth: Auth;
  body: Body;
  /** What was changed from a valid request, for the failure message. */
  mutations: string[];
}

/** A plan in a line or two: fast-check prints it (instead of its megabyte strings) for a counterexample. */
export function describePlan(plan: Plan): string {
  const path = Object.entries(plan.path).map(
    ([name, choice]) => `${name}=${preview(JSON.stringify(choice), 80)}`,
  );
  const query = plan.query.map(([name, value]) => `${name}=${preview(String(value), 40)}`);
  const body =
    plan.body.kind === 'multipart'
      ? `multipart(${plan.body.framing}, ${plan.body.parts.length} parts)`
      : plan.body.kind;
  return [
    `${plan.variant} auth=${plan.auth}`,
    `mutations=[${plan.mutations.join('; ')}]`,
    `path={${path.join(', ')}} query=[${query.join('&')}]${plan.rawQuery ? ` + ${preview(plan.rawQuery, 80)}` : ''}`,
    `body=${body}`,
  ].join(' ');
}
