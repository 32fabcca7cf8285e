import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { serializerCompiler } from './serialization.js';

const compile = (schema: object, httpStatus = '200') =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus }) as (data: unknown) => string;

describe('serializerCompiler', () => {
  it('compiles a schema once: asked again for the same schema (another app, another status), it gives the same serializer', () => {
    const schema = Type.Object({ n: Type.Integer() });
    expect(compile(schema)).toBe(compile(schema, '201'));
    expect(compile(Type.Object({ n: Type.Integer() }))).not.toBe(compile(schema));
  });

  it('writes what the schema declares and nothing else, as Fastify’s own serializer does', () => {
    const serialize = compile(Type.Object({ id: Type.String(), n: Type.Optional(Type.Integer()) }));
    expect(JSON.parse(serialize({ id: 'SV_1', n: 2, secret: 'x' }))).toEqual({ id: 'SV_1', n: 2 });
    expect(JSON.parse(serialize({ id: 'SV_2' }))).toEqual({ id: 'SV_2' });
  });
});
