import fc, { type Arbitrary } from 'fast-check';

// What goes around a body: content types, path segments, query strings, undecodable bytes.

/** Content types a JSON call should refuse or handle: wrong, malformed, odd charsets, multipart without parts. */
export const hostileContentType: Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  '',
  'text/plain',
  'text/csv',
  'text/csv; charset=utf-16le',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=nothere',
  'application/json; charset=latin1',
  'application/json; charset=utf-16le',
  'application/json; charset=',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  ';;;',
  '*/*',
  'application/json\u00e9',
);

/**
 * Path segments that are not ids: as sent on the wire, so invalid percent-escapes and encoded NUL or lone
 * surrogates reach the router as a client would send them.
 */
export const malformedSegment: Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('%00', 'SV_%00aaaaaaaaaaaaaa', 'a%00') },
  { weight: 2, arbitrary: fc.constantFrom('%ED%A0%80', '%C3%28', '%FF') },
  { weight: 2, arbitrary: fc.constantFrom('x'.repeat(101), 'x'.repeat(5000), `SV_${'a'.repeat(100_000)}`) },
  { weight: 2, arbitrary: fc.constantFrom('%ZZ', '%', '%25', '%2e%2e', '..', '.', '%20', 'a%2Fb') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%F0%9F%98%80',
      'null',
      '0',
      '-1',
      '1e308',
      'NaN',
      'SV_aaaaaaaaaaaaaaa',
      'UR_aaaaaaaaaaaaaaa',
      '__proto__',
      'constructor',
      "'%20OR%201=1--",
    ),
  },
);

/** Query strings (as sent) with paging values out of range, not numbers, repeated, or not UTF-8. */
export const hostileQuery: Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'offset=%00',
      'offset=%ED%A0%80',
      'pageSize=%00',
      'status=%00',
      'status=%ED%A0%80',
      'userId=%00',
      'userId=%ED%A0%80',
      'decrementQuotas=%00',
      '%00=%00',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'offset=1e308',
      'offset=99999999999999999999',
      'offset=9007199254740993',
      'offset=2147483648',
      'offset=Infinity',
      'pageSize=100000000',
      'pageSize=1e308',
      'pageSize=99999999999999999999',
      'pageSize=Infinity',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'offset=-1',
      'offset=NaN',
      'offset=-Infinity',
      'offset=',
      'offset=abc',
      'offset=1.5',
      'offset=0x10',
      'pageSize=0',
      'pageSize=-1',
      'pageSize=1001',
      'pageSize=NaN',
      'decrementQuotas=maybe',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'offset=1&offset=2',
      'offset[]=1',
      'offset[a]=1',
      'pageSize=1&pageSize=1000',
      'offset=%ZZ',
      'unknown=1',
      '&&&=&=',
      `userId=${'x'.repeat(5000)}`,
      `a=${'b'.repeat(100_000)}`,
    ),
  },
);

/** Bodies that are not text in any charset a call reads, sent as JSON or as something else. */
export const hostileBytes = fc.record({
  bytes: fc.constantFrom<string | Buffer>(
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Buffer.from('{}', 'utf16le'),
    Buffer.alloc(64),
    'a=1&b=2',
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/csv',
    'application/x-www-form-urlencoded',
    undefined,
  ),
});
