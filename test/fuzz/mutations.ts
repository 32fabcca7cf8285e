import fc, { type Arbitrary } from 'fast-check';
import { extraFieldName, hostileJsonText, hostileValue } from './hostile.js';
import { hostileBytes, hostileContentType, hostileQuery, malformedSegment } from './hostile-wire.js';
import { ID_KINDS } from './id-kinds.js';
import { preview, Raw } from './json-text.js';
import {
  hostileFile,
  hostileMultipart,
  type MultipartBody,
  type Part,
  type Spoil,
  spoil,
} from './multipart.js';
import type { JsonSchema, Operation } from './operations.js';
import type { Auth, Body, IdChoice, Plan } from './plan.js';

/** One hostile change to a valid request. Data, not a function, so fast-check can print and shrink it. */
export type Mutation =
  | { on: 'path'; param: string; choice: IdChoice }
  | { on: 'query'; text: string }
  | { on: 'auth'; auth: Auth }
  | { on: 'field'; at: string[]; value: unknown }
  | { on: 'drop'; at: string[] }
  | { on: 'jsonBody'; raw: Raw }
  | { on: 'noBody' }
  | { on: 'contentType'; value: string | undefined }
  | { on: 'truncate'; at: number }
  | { on: 'bytes'; bytes: string | Buffer; contentType: string | undefined }
  | { on: 'multipart'; body: MultipartBody }
  | { on: 'file'; content: string | Buffer | undefined; spoil: Spoil | undefined };

type Weighted = { weight: number; arbitrary: Arbitrary<Mutation> };

/**
 * The changes that make sense for the operation, weighted so that most requests carry one that reaches
 * past routing and validation into the code behind: a hostile field value where the call takes a body,
 * a hostile id or query where it takes those; a call without a body still gets one now and then.
 */
export function mutationFor(op: Operation): Arbitrary<Mutation> {
  return fc.oneof(...wireMutations(op), ...bodyMutations(op), ...fileMutations(op));
}

/** Token, query string and path ids. */
function wireMutations(op: Operation): Weighted[] {
  const choices: Weighted[] = [
    { weight: 1, arbitrary: auth.map((a) => ({ on: 'auth', auth: a })) },
    { weight: op.query.length > 0 ? 5 : 1, arbitrary: hostileQuery.map((text) => ({ on: 'query', text })) },
  ];
  if (op.pathParams.length > 0) {
    const path = fc.record({ param: fc.constantFrom(...op.pathParams), choice: idChoice });
    choices.push({ weight: 5, arbitrary: path.map((m) => ({ on: 'path', ...m })) });
  }
  return choices;
}

/** Field values, missing fields, whole bodies, content types, cut or absent bodies. */
function bodyMutations(op: Operation): Weighted[] {
  const schema = op.bodies['application/json'];
  const takesBody = Object.keys(op.bodies).length > 0;
  const fields = schema ? fieldPaths(schema) : [];
  const at = fc.oneof(
    { weight: 4, arbitrary: fields.length > 0 ? fc.constantFrom(...fields) : extraFieldName.map((n) => [n]) },
    { weight: 1, arbitrary: extraFieldName.map((name) => [name]) },
  );
  const field = fc.record({ at, value: hostileValue }).map((m) => ({ on: 'field' as const, ...m }));
  const choices: Weighted[] = [
    { weight: schema ? 8 : 1, arbitrary: field },
    { weight: takesBody ? 3 : 1, arbitrary: hostileJsonText.map((raw) => ({ on: 'jsonBody', raw })) },
    {
      weight: takesBody ? 3 : 1,
      arbitrary: hostileContentType.map((value) => ({ on: 'contentType', value })),
    },
  ];
  const required = schema ? requiredPaths(schema) : [];
  if (required.length > 0)
    choices.push({
      weight: 2,
      arbitrary: fc.constantFrom(...required).map((path) => ({ on: 'drop', at: path })),
    });
  if (!takesBody) return choices;
  const cut = fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ on: 'truncate' as const, at: p }));
  return [
    ...choices,
    { weight: 2, arbitrary: cut },
    { weight: 1, arbitrary: hostileBytes.map((b) => ({ on: 'bytes' as const, ...b })) },
    { weight: 1, arbitrary: fc.constant({ on: 'noBody' as const }) },
  ];
}

/** Multipart bodies: broken framing and parts, spoiled or hostile files (any call with a body gets some). */
function fileMutations(op: Operation): Weighted[] {
  if (Object.keys(op.bodies).length === 0) return [];
  const takesFile = op.bodies['multipart/form-data'] !== undefined;
  const multipart: Weighted = {
    weight: takesFile ? 3 : 1,
    arbitrary: hostileMultipart.map((body) => ({ on: 'multipart', body })),
  };
  if (!takesFile) return [multipart];
  const file = fc.record({
    content: fc.option(hostileFile, { nil: undefined }),
    spoil: fc.option(spoil, { nil: undefined }),
  });
  return [multipart, { weight: 8, arbitrary: file.map((m) => ({ on: 'file', ...m })) }];
}

/** Mostly one change, so that it is the reason for the answer; sometimes two or three together. */
export function mutationsFor(op: Operation): Arbitrary<Mutation[]> {
  const one = mutationFor(op);
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(one) },
    { weight: 2, arbitrary: fc.tuple(one, one) },
    { weight: 1, arbitrary: fc.tuple(one, one, one) },
  );
}

const auth: Arbitrary<Auth> = fc.constantFrom(
  'participant',
  'foreign',
  'none',
  'unknown',
  'malformed',
  'bearer',
);

const idChoice: Arbitrary<IdChoice> = fc.oneof(
  { weight: 2, arbitrary: fc.nat({ max: 3 }).map((pick) => ({ from: 'foreign' as const, pick })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ kind: fc.constantFrom(...ID_KINDS), pick: fc.nat({ max: 3 }) })
      .map((c) => ({ from: 'other' as const, ...c })),
  },
  { weight: 4, arbitrary: malformedSegment.map((text) => ({ from: 'text' as const, text })) },
);

/** Dotted paths of the properties a JSON body schema names, two levels deep (anyOf members included). */
export function fieldPaths(schema: JsonSchema, prefix: string[] = []): string[][] {
  if (prefix.length >= 2) return [];
  const members = schema.anyOf ?? schema.oneOf ?? [schema];
  return members.flatMap((member) =>
    Object.entries(member.properties ?? {}).flatMap(([name, sub]) => [
      [...prefix, name],
      ...fieldPaths(sub, [...prefix, name]),
    ]),
  );
}

function requiredPaths(schema: JsonSchema): string[][] {
  return (schema.required ?? []).map((name) => [name]);
}

export function applyMutation(plan: Plan, m: Mutation): Plan {
  const mutations = [...plan.mutations, describeMutation(m)];
  switch (m.on) {
    case 'path':
      return { ...plan, mutations, path: { ...plan.path, [m.param]: m.choice } };
    case 'query':
      return { ...plan, mutations, rawQuery: plan.rawQuery ? `${plan.rawQuery}&${m.text}` : m.text };
    case 'auth':
      return { ...plan, mutations, auth: m.auth };
    default:
      return { ...plan, mutations, body: mutateBody(plan.body, m) };
  }
}

function mutateBody(body: Body, m: Mutation): Body {
  const json =
    body.kind === 'json' ? body : { kind: 'json' as const, value: {}, contentType: 'application/json' };
  switch (m.on) {
    case 'field':
      return { ...json, value: setAt(json.value, m.at, m.value) };
    case 'drop':
      return { ...json, value: setAt(json.value, m.at, undefined) };
    case 'jsonBody':
      return { kind: 'json', value: m.raw, contentType: 'application/json' };
    case 'noBody':
      return { kind: 'none' };
    case 'contentType':
      return body.kind === 'multipart' || body.kind === 'none'
        ? { kind: 'bytes', bytes: body.kind === 'none' ? '{}' : 'file=x', contentType: m.value }
        : { ...body, contentType: m.value };
    case 'truncate':
      return { ...json, truncate: m.at };
    case 'bytes':
      return { kind: 'bytes', bytes: m.bytes, contentType: m.contentType };
    case 'multipart':
      return m.body;
    case 'file':
      return spoilFile(body, m.content, m.spoil);
    default:
      return body;
  }
}

/** A copy of `value` with the property at `path` set (or removed, for undefined); a non-object becomes one. */
function setAt(value: unknown, path: string[], next: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return next;
  const object = isPlainObject(value) ? { ...value } : {};
  const child = rest.length === 0 ? next : setAt(object[head], rest, next);
  if (child === undefined) delete object[head];
  else
    Object.defineProperty(object, head, {
      value: child,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return object;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Raw);
}

function spoilFile(body: Body, content: string | Buffer | undefined, how: Spoil | undefined): Body {
  const parts = body.kind === 'multipart' ? body.parts : [];
  const file = parts.find((p) => p.name === 'file') ?? { name: 'file', filename: 'upload.csv', content: '' };
  const spoiled: Part = { ...file, content: content ?? file.content, ...(how ? { spoil: how } : {}) };
  return {
    kind: 'multipart',
    framing: body.kind === 'multipart' ? body.framing : 'ok',
    parts: [...parts.filter((p) => p !== file), spoiled],
  };
}

function describeMutation(m: Mutation): string {
  const shown = (v: unknown) =>
    typeof v === 'string'
      ? preview(v, 60)
      : Buffer.isBuffer(v)
        ? `<${v.length} bytes>`
        : preview(String(v instanceof Raw ? v.text : (JSON.stringify(v) ?? v)), 60);
  switch (m.on) {
    case 'path':
      return `path ${m.param} <- ${JSON.stringify(m.choice).slice(0, 80)}`;
    case 'field':
      return `field ${m.at.map((k) => preview(k, 20)).join('.')} <- ${shown(m.value)}`;
    case 'drop':
      return `drop ${m.at.join('.')}`;
    case 'multipart':
      return `multipart ${m.body.framing} [${m.body.parts.map((p) => preview(p.name, 10)).join(', ')}]`;
    case 'file':
      return `file ${m.content === undefined ? 'kept' : shown(m.content)} spoil=${m.spoil ?? 'none'}`;
    default: {
      const { on, ...rest } = m;
      return `${on} ${Object.values(rest).map(shown).join(' ')}`;
    }
  }
}
