import { type IdKind, kindOfParam } from './id-kinds.js';
import { type Ref, toJsonText } from './json-text.js';
import { encodeMultipart } from './multipart.js';
import type { Operation } from './operations.js';
import type { Auth, Body, IdChoice, Plan } from './plan.js';
import type { World } from './world.js';

/** A request ready for `app.inject`. */
export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** The two organisations a plan's ids come from: the fuzzer's own and the "foreign" one. */
export interface Worlds {
  own: World;
  foreign: World;
}

/** Turns a plan into the request it stands for, with the current seeded ids. */
export function materialize(op: Operation, plan: Plan, worlds: Worlds): WireRequest {
  const resolve = (ref: Ref) =>
    ref.kind === 'exportCsv' ? worlds.own.exportCsv : pick(worlds.own, ref.kind as IdKind, 0);
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    segment(op, plan, name, plan.path[name] ?? { from: 'seeded', pick: 0 }, worlds),
  );
  const query = [
    ...plan.query.map(([name, value]) => {
      const text = typeof value === 'object' ? resolve(value) : String(value);
      return `${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
    }),
    ...(plan.rawQuery ? [plan.rawQuery] : []),
  ].join('&');
  const request: WireRequest = {
    method: op.method,
    url: query ? `${path}?${query}` : path,
    headers: authHeaders(plan.auth, worlds),
  };
  return withBody(request, plan.body, resolve);
}

function pick(world: World, kind: IdKind, index: number): string {
  const ids = world.ids[kind];
  if (!ids || ids.length === 0) throw new Error(`the seeded organisation has no ${kind}`);
  return ids[index % ids.length] as string;
}

/**
 * A valid call never names the fuzzer's own administrator where it would rotate, change or delete it:
 * the fuzzer's token must keep working (hostile variants still may name it).
 */
const SPARES_ADMIN = new Set([
  'POST /API/v3/users/{userId}/apitoken',
  'PUT /API/v3/users/{userId}',
  'DELETE /API/v3/users/{userId}',
]);

function segment(op: Operation, plan: Plan, name: string, choice: IdChoice, worlds: Worlds): string {
  const kind = kindOfParam(op.path, name);
  switch (choice.from) {
    case 'seeded': {
      const spare = plan.variant === 'valid' && kind === 'user' && SPARES_ADMIN.has(op.key);
      return encodeURIComponent(pick(worlds.own, kind, spare ? 1 : choice.pick));
    }
    case 'foreign':
      return encodeURIComponent(pick(worlds.foreign, kind, choice.pick));
    case 'other':
      return encodeURIComponent(pick(worlds.own, choice.kind, choice.pick));
    case 'text':
      return choice.text;
  }
}

function authHeaders(auth: Auth, worlds: Worlds): Record<string, string> {
  switch (auth) {
    case 'admin':
      return { 'x-api-token': worlds.own.adminToken };
    case 'participant':
      return { 'x-api-token': worlds.own.participantToken };
    case 'foreign':
      return { 'x-api-token': worlds.foreign.adminToken };
    case 'bearer':
      return { authorization: `Bearer ${worlds.own.adminToken}` };
    case 'unknown':
      return { 'x-api-token': 'A'.repeat(40) };
    case 'malformed':
      return { 'x-api-token': `${worlds.own.adminToken}%00'"` };
    case 'none':
      return {};
  }
}

function withBody(request: WireRequest, body: Body, resolve: (ref: Ref) => string): WireRequest {
  const headers = { ...request.headers };
  switch (body.kind) {
    case 'none':
      return request;
    case 'json': {
      const text = toJsonText(body.value, resolve);
      const payload =
        body.truncate === undefined ? text : text.slice(0, Math.floor(text.length * body.truncate));
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      return { ...request, headers, payload };
    }
    case 'bytes':
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      return { ...request, headers, payload: body.bytes };
    case 'multipart': {
      const { payload, contentType } = encodeMultipart(body, resolve);
      return { ...request, headers: { ...headers, 'content-type': contentType }, payload };
    }
  }
}
