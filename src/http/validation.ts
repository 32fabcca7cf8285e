import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { removeAdditional: true, useDefaults: true, allErrors: false, strict: false };

/**
 * Query strings, paths, headers and multipart form fields arrive as text, so they are coerced
 * (`pageSize=5` is a number). JSON bodies are not: a wrong type there is a 400 naming the field
 * (COMPAT.md "Paths"), and `null` stays `null` instead of becoming `""`. A route whose body may be JSON
 * or a multipart form declares one schema per content type (`body: { content: { ... } }`).
 */
const forText = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
const forJson = addFormats(new Ajv({ ...common, coerceTypes: false }));

/** Keywords whose value is a schema, a list of schemas, or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];

type Schema = Record<string, unknown>;
const mapValues = (map: Schema, f: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(map).map(([key, value]) => [key, f(value)]));

/**
 * Every integer exact and every number finite, where a route sets no tighter bound: ajv's integer
 * check (`x % 1`) passes `offset=1e308`, `99999999999999999999` and a coerced `Infinity` (or JSON
 * `1e400`), which the databases then refuse with a 500 (issue 19).
 */
export function withFiniteNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withFiniteNumbers);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = { ...schema };
  const types = [out.type].flat();
  const limit = types.includes('integer') ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  if (types.includes('integer') || types.includes('number')) {
    out.minimum ??= -limit;
    out.maximum ??= limit;
  }
  for (const key of [...ONE, ...LIST]) if (key in out) out[key] = withFiniteNumbers(out[key]);
  for (const key of MAP) if (isSchemaMap(out[key])) out[key] = mapValues(out[key], withFiniteNumbers);
  return out;
}

const isSchemaMap = (value: unknown): value is Schema => value !== null && typeof value === 'object';

/**
 * withFiniteNumbers of a route's schema, the same object each time it is asked for that schema. Ajv keeps
 * what it compiled by schema object, so a schema it has seen compiles once per process: every app built
 * here (a test file builds several, and a route may share its schema with others) takes the validator ajv
 * already has instead of compiling it again and keeping both. A route's schema is a constant, never changed
 * once declared, which is what ajv's own cache relies on too.
 */
const finiteSchemas = new WeakMap<object, object>();
function finiteSchemaOf(schema: object): object {
  let finite = finiteSchemas.get(schema);
  if (finite === undefined) {
    finite = withFiniteNumbers(schema) as object;
    finiteSchemas.set(schema, finite);
  }
  return finite;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart, contentType }) => {
  const typedJson = httpPart === 'body' && contentType !== 'multipart/form-data';
  return (typedJson ? forJson : forText).compile(finiteSchemaOf(schema)) as ReturnType<
    FastifySchemaCompiler<object>
  >;
};
