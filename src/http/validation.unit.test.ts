import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validatorCompiler } from './validation.js';

const compile = (schema: object, httpPart: string) =>
  validatorCompiler({ schema, httpPart, method: 'POST', url: '/x' }) as (data: unknown) => boolean;

describe('validatorCompiler', () => {
  it('compiles a schema once: asked again for the same schema (another app, another route), it gives the same validator', () => {
    const schema = Type.Object({ n: Type.Integer() });
    expect(compile(schema, 'body')).toBe(compile(schema, 'body'));
    expect(compile(schema, 'querystring')).toBe(compile(schema, 'querystring'));
    // Bodies are not coerced and text parts are: one validator each.
    expect(compile(schema, 'body')).not.toBe(compile(schema, 'querystring'));
  });

  it('keeps every number finite and every integer exact, where the schema sets no bound', () => {
    const validate = compile(Type.Object({ n: Type.Integer(), x: Type.Number() }), 'body');
    expect(validate({ n: 2 ** 53 - 1, x: 1.5 })).toBe(true);
    expect(validate({ n: 2 ** 53 + 2, x: 1 })).toBe(false);
    expect(validate({ n: 1, x: Number.POSITIVE_INFINITY })).toBe(false);
  });

  it('a schema declared anew compiles anew: equal schemas that are other objects share nothing', () => {
    const one = compile(Type.Object({ n: Type.Integer({ maximum: 3 }) }), 'body');
    const other = compile(Type.Object({ n: Type.Integer({ maximum: 5 }) }), 'body');
    expect([one({ n: 4 }), other({ n: 4 })]).toEqual([false, true]);
  });
});
