import fastJsonStringify, { type AnySchema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

/**
 * Fastify's own response serializer, fast-json-stringify, called as its default compiler calls it (no
 * external schemas: the app adds none, and a `$ref` to one added with `addSchema` would fail at start-up,
 * not quietly), but once per response schema in a process: the serializer of a schema already compiled
 * is taken again. Each app built here (a test file builds several; the benchmarks' nodes one each) would
 * otherwise generate and keep the same code again, route by route. A route's schema is a constant, never
 * changed once declared, as for validation (validation.ts).
 */
const serializers = new WeakMap<object, (data: unknown) => string>();

export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  let serialize = serializers.get(schema);
  if (serialize === undefined) {
    serialize = fastJsonStringify(schema as AnySchema) as (data: unknown) => string;
    serializers.set(schema, serialize);
  }
  return serialize;
};
