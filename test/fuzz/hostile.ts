import fc, { type Arbitrary } from 'fast-check';
import { Raw } from './json-text.js';

// Big values are built once: the fuzzer sends them many times.
const MEGABYTE = 'a'.repeat(1024 * 1024);
const MEGABYTE_WIDE = 'é'.repeat(512 * 1024);
const DEPTH = 5000;
export const DEEP_ARRAY = new Raw(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
export const DEEP_OBJECT = new Raw(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);

/**
 * Strings that break naive code, by class (the classes that hurt most weigh most): NUL, which PostgreSQL
 * refuses in text; lone surrogates, which have no UTF-8 form; megabyte strings; then traversal, injection,
 * numerals and impossible dates.
 */
export const hostileString: Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', `${'x'.repeat(20)}\u0000`) },
  { weight: 3, arbitrary: fc.constantFrom('\ud800', '\udfff', 'a\ud800b', '\udc00\ud800') },
  { weight: 1, arbitrary: fc.constantFrom(MEGABYTE, MEGABYTE_WIDE, `SV_${'a'.repeat(10_000)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\uffff',
      '\u202e\u0301',
      '😀'.repeat(50),
      '\n\r\t',
      '%00',
      '../../../../etc/passwd',
      "'; drop table users; --",
      '<script>alert(1)</script>',
      // A template-injection probe, written so that it is not a template literal here.
      '$'.concat('{7*7}{{7*7}}'),
      '"quoted","csv"\n"row',
      'SV_aaaaaaaaaaaaaaa',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'NaN',
      'Infinity',
      '-1',
      '1e308',
      '99999999999999999999',
      '9999-12-31T23:59:59Z',
      '+275760-09-13T00:00:00.000Z',
      '2024-02-30T25:61:61Z',
      '0000-00-00',
    ),
  },
);

/** Numbers outside every range, and numerals JavaScript cannot hold (as raw JSON text). */
export const hostileNumber: Arbitrary<unknown> = fc.constantFrom(
  -1,
  0,
  -0,
  0.5,
  2 ** 53 + 2,
  -(2 ** 31) - 1,
  1e308,
  -1e308,
  new Raw('1e400'),
  new Raw('-1e400'),
  new Raw('99999999999999999999'),
  new Raw('123456789012345678901234567890.123456789'),
  new Raw('1e-400'),
  new Raw('-0.0'),
);

/** Any JSON value of the wrong shape: what a field of another type, a typo or an attacker would send. */
export const hostileValue: Arbitrary<unknown> = fc.oneof(
  { weight: 7, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      [null],
      ['a', 1],
      { a: { b: [] } },
      '{}',
      '[]',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 10_000 }, (_, i) => `x${i}`)) },
  // Objects of known field names holding hostile strings: contacts to import, answers, embedded data.
  { weight: 2, arbitrary: hostileRecord() },
  { weight: 1, arbitrary: fc.array(hostileRecord(), { minLength: 1, maxLength: 2 }) },
);

function hostileRecord(): Arbitrary<Record<string, unknown>> {
  const key = fc.constantFrom(
    'firstName',
    'email',
    'extRef',
    'language',
    'QID1',
    'QID3_TEXT',
    'panel',
    'name',
  );
  return fc.dictionary(key, fc.oneof(hostileString, hostileNumber), { minKeys: 1, maxKeys: 3 });
}

/** Field names a body should not have: unknown, prototype-polluting, empty, huge. */
export const extraFieldName: Arbitrary<string> = fc.constantFrom(
  'unexpected',
  '__proto__',
  'constructor',
  'prototype',
  '',
  '\u0000',
  '\ud800',
  'x'.repeat(10_000),
);

/** Whole bodies that are not the object a call expects, or not JSON at all. */
export const hostileJsonText: Arbitrary<Raw> = fc.constantFrom(
  new Raw('null'),
  new Raw('[]'),
  new Raw('"text"'),
  new Raw('123'),
  new Raw('true'),
  new Raw('{}'),
  new Raw('{"a":1,"a":2}'),
  new Raw('{"__proto__":{"admin":true}}'),
  new Raw('{"constructor":{"prototype":{"admin":true}}}'),
  new Raw('{"a":1} trailing'),
  new Raw('\ufeff{}'),
  new Raw('{"a":"\\ud800"}'),
  new Raw('{"a":"\\u0000"}'),
  new Raw("{'single':'quotes'}"),
  new Raw('{"a":NaN}'),
  new Raw(''),
  new Raw(' '),
  new Raw(JSON.stringify(MEGABYTE)),
  DEEP_ARRAY,
  DEEP_OBJECT,
);
