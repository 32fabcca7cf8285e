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

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart, contentType }) => {
  const typedJson = httpPart === 'body' && contentType !== 'multipart/form-data';
  return (typedJson ? forJson : forText).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};
