/**
 * Input no engine stores faithfully is refused at the boundary, for every route in one place (issue 19):
 * PostgreSQL rejects U+0000 in text ("invalid byte sequence"), a lone surrogate has no UTF-8 form
 * (SQLite would store invalid UTF-8), a JSON number like 1e400 parses to Infinity (stored as null), and a
 * value nested thousands deep overflows the stack of whatever serialises it later.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unstorableCharacter } from '../db/storable-text.js';
import { ApiError } from './errors.js';

/** Far deeper than any real request (a QSF document nests about 12 levels). */
export const MAX_DEPTH = 64;

function textProblem(text: string): string | undefined {
  const found = unstorableCharacter(text);
  if (!found) return undefined;
  return 'nul' in found ? 'contains a NUL character' : 'contains an unpaired surrogate';
}

/**
 * Objects and arrays a parser built: plain, or of a prototype-less class (the query string parser's).
 * A Buffer (an uploaded file) or a stream (a raw upload) is not read.
 */
function isParsedContainer(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

/** A scalar's problem; `container` for an object or array, to be read in turn. */
function problemOf(value: unknown): string | undefined {
  if (typeof value === 'string') return textProblem(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : 'is a number too large to represent';
  return isParsedContainer(value) ? 'container' : undefined;
}

/** One container being read: an array's items by index, or an object's keys; and the next to read. */
interface Frame {
  container: Record<string, unknown>;
  items: unknown[] | undefined;
  keys: string[] | undefined;
  length: number;
  next: number;
}

function frameOf(container: Record<string, unknown>): Frame {
  if (Array.isArray(container))
    return { container, items: container, keys: undefined, length: container.length, next: 0 };
  const keys = Object.keys(container);
  return { container, items: undefined, keys, length: keys.length, next: 0 };
}

/** The field being read, as the caller wrote it: `name`, `contacts.0.email`. */
const pathOf = (frames: Frame[]) => frames.map((f) => f.keys?.[f.next - 1] ?? f.next - 1).join('.');

/**
 * A deep value is named where its nesting starts (`file`, not `file.0.0.0…`), and by its first levels
 * when the nesting is of named fields.
 */
function outerField(path: string, part: string): string {
  const segments = path.split('.');
  while (segments.length > 0 && /^\d+$/.test(segments.at(-1) ?? '')) segments.pop();
  return segments.length > 3 ? `${segments.slice(0, 3).join('.')}…` : segments.join('.') || part;
}

/**
 * The first problem in a parsed request part, naming its field; `part` names the part itself (`body`).
 * Depth first with a stack of its own, as recursion would, so depth cannot exhaust the call stack and
 * a path is only spelled out for the field at fault.
 */
export function findUnstorable(value: unknown, part: string): ApiError | undefined {
  const top = problemOf(value);
  if (top !== 'container') return top ? ApiError.invalid(part, top) : undefined;
  const frames = [frameOf(value as Record<string, unknown>)];
  for (let frame = frames.at(-1); frame; frame = frames.at(-1)) {
    if (frame.next === frame.length) {
      frames.pop();
      continue;
    }
    const key = frame.keys?.[frame.next];
    const child = key === undefined ? frame.items?.[frame.next] : frame.container[key];
    frame.next++;
    const keyProblem = key === undefined ? undefined : textProblem(key);
    if (keyProblem)
      return ApiError.invalid(`a field name in ${pathOf(frames.slice(0, -1)) || part}`, keyProblem);
    const problem = problemOf(child);
    if (problem === 'container') {
      if (frames.length === MAX_DEPTH)
        return ApiError.invalid(outerField(pathOf(frames), part), `nests more than ${MAX_DEPTH} levels deep`);
      frames.push(frameOf(child as Record<string, unknown>));
    } else if (problem) return ApiError.invalid(pathOf(frames), problem);
  }
  return undefined;
}

function unstorableIn(request: FastifyRequest): ApiError | undefined {
  return (
    findUnstorable(request.params, 'the path') ??
    findUnstorable(request.query, 'the query string') ??
    findUnstorable(request.body, 'body')
  );
}

/**
 * Fastify validates a body only against the schema of its content type (`body: {content: {...}}`): a
 * request with no content type, or one the call does not list, would reach the handler unchecked.
 */
function unlistedBody(request: FastifyRequest): ApiError | undefined {
  const schema = request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
  if (!schema?.content) return undefined;
  const accepted = Object.keys(schema.content);
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (!type) return ApiError.invalid('body', `is required (${accepted.join(' or ')})`);
  if (accepted.includes(type)) return undefined;
  return ApiError.of('FW_VAL_3', `This call takes ${accepted.join(' or ')}, not ${type}.`);
}

/**
 * Registered on the root instance, so every route has them. The text is checked before the handler,
 * after every parser has run: multipart fields are attached to the body in a preValidation hook of
 * their own scope, which runs after the root's.
 */
export function guardRequestInput(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => done(unlistedBody(request)));
  app.addHook('preHandler', (request, _reply, done) => done(unstorableIn(request)));
}
