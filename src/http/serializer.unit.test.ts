import fastJson, { type Schema } from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Envelope } from './envelope.js';
import { serializerCompiler } from './serializer.js';

const ResultSchema = Type.Object({ name: Type.String(), tags: Type.Array(Type.String()) });
const schema = JSON.parse(JSON.stringify(Envelope(ResultSchema)));
const compile = (routeSchema: Schema) =>
  serializerCompiler({ schema: routeSchema, method: 'GET', url: '/x', httpStatus: '200' });
const meta = (requestId: string) => ({ httpStatus: '200 - OK', requestId });

/** A result that counts how often its `name` is read. */
function countingResult(name: string) {
  const reads = { count: 0 };
  const result = {
    get name() {
      reads.count++;
      return name;
    },
    tags: ['a"b', 'ü'],
  };
  return { result, reads };
}

describe('serializerCompiler', () => {
  it('writes what fast-json-stringify writes for the whole envelope', () => {
    const plain = fastJson(schema);
    const serialize = compile(schema);
    for (const result of [{ name: 'n', tags: [] }, Object.freeze({ name: 'x\n"y', tags: ['ü'] })]) {
      const data = { result, meta: meta('r1') };
      expect(serialize(data)).toBe(plain(data));
    }
  });

  it('writes a frozen result once and keeps its JSON; the meta is written each time', () => {
    const { result, reads } = countingResult('kept');
    Object.freeze(result);
    const serialize = compile(schema);
    const first = serialize({ result, meta: meta('r1') });
    const second = serialize({ result, meta: meta('r2') });
    expect(reads.count).toBe(1);
    expect(JSON.parse(first)).toEqual({ result: { name: 'kept', tags: ['a"b', 'ü'] }, meta: meta('r1') });
    expect(JSON.parse(second).meta).toEqual(meta('r2'));
    expect(JSON.parse(second).result).toEqual(JSON.parse(first).result);
  });

  it('writes a result that is not frozen every time', () => {
    const { result, reads } = countingResult('fresh');
    const serialize = compile(schema);
    serialize({ result, meta: meta('r1') });
    result.tags = ['changed'];
    expect(JSON.parse(serialize({ result, meta: meta('r2') })).result.tags).toEqual(['changed']);
    expect(reads.count).toBe(2);
  });

  it('leaves other schemas to fast-json-stringify alone', () => {
    const metaOnly = JSON.parse(
      JSON.stringify(Type.Object({ meta: Type.Object({ requestId: Type.String() }) })),
    );
    const data = { meta: Object.freeze({ requestId: 'r' }) };
    expect(compile(metaOnly)(data)).toBe(fastJson(metaOnly)(data));
  });
});
