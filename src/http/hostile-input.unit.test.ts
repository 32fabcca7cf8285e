import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { findUnstorable, MAX_DEPTH } from './hostile-input.js';

const messageOf = (value: unknown, part = 'body') => findUnstorable(value, part)?.message;

describe('findUnstorable', () => {
  it('passes text every engine stores: surrogate pairs, other control characters, empty values', () => {
    expect(messageOf({ a: '😀 \u{1F408}\u200D\u2B1B', b: 'tab\there\u0001', c: ['', null, 0, false] })).toBe(
      undefined,
    );
  });

  it('names the part itself for a bare value, and the field otherwise', () => {
    expect(messageOf('a\u0000', 'the query string')).toBe(
      'Invalid request: the query string contains a NUL character.',
    );
    expect(messageOf({ list: [{ x: 'ok' }, { x: '\ud83d' }] })).toBe(
      'Invalid request: list.1.x contains an unpaired surrogate.',
    );
  });

  it('reads objects without a prototype, as the query string parser makes them', () => {
    const query = Object.assign(Object.create(null), { q: '\u0000' });
    expect(messageOf(query, 'the query string')).toBe('Invalid request: q contains a NUL character.');
  });

  it('leaves uploaded files (Buffers) and raw uploads (streams) to the import that reads them', () => {
    expect(messageOf({ file: Buffer.from([0, 0xd8, 0]), raw: Readable.from(['\u0000']) })).toBe(undefined);
  });

  it('takes MAX_DEPTH levels (the body itself is one), refuses more, and never recurses', () => {
    let value: unknown = 'leaf';
    for (let i = 1; i < MAX_DEPTH; i++) value = [value];
    expect(messageOf({ ok: value })).toBe(undefined);
    expect(messageOf({ deep: [value] })).toBe(
      `Invalid request: deep nests more than ${MAX_DEPTH} levels deep.`,
    );
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(messageOf(value)).toBe(`Invalid request: body nests more than ${MAX_DEPTH} levels deep.`);
  });
});
