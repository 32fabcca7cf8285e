import fc, { type Arbitrary } from 'fast-check';
import { hostileString } from './hostile.js';
import { Ref, type ResolveRef } from './json-text.js';

/** One part of a multipart body; `content` may name a seeded file (`Ref('exportCsv')`). */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: string | Buffer | Ref;
  /** A change made to the content when it is sent (so it applies to a seeded file too). */
  spoil?: Spoil;
}

export type Spoil = 'truncate' | 'nul' | 'strayQuote' | 'invalidUtf8' | 'bom16';

/** How the parts are framed: right, or in one of the ways a broken client or an attacker frames them. */
export type Framing =
  | 'ok'
  | 'noClosing'
  | 'wrongBoundary'
  | 'noBoundaryParam'
  | 'emptyBoundary'
  | 'longBoundary'
  | 'lfOnly'
  | 'noHeaders';

export interface MultipartBody {
  kind: 'multipart';
  parts: Part[];
  framing: Framing;
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';

/** The bytes and content type of a multipart body, as a client would send it. */
export function encodeMultipart(
  body: MultipartBody,
  resolve: ResolveRef,
): { payload: Buffer; contentType: string } {
  const boundary = body.framing === 'longBoundary' ? 'b'.repeat(200) : BOUNDARY;
  const eol = body.framing === 'lfOnly' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  for (const part of body.parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const headers =
      body.framing === 'noHeaders'
        ? ''
        : `${disposition}${eol}${part.contentType ? `Content-Type: ${part.contentType}${eol}` : ''}`;
    chunks.push(
      Buffer.from(`--${boundary}${eol}${headers}${eol}`),
      contentOf(part, resolve),
      Buffer.from(eol),
    );
  }
  if (body.framing !== 'noClosing') chunks.push(Buffer.from(`--${boundary}--${eol}`));
  return { payload: Buffer.concat(chunks), contentType: contentTypeOf(body.framing, boundary) };
}

function contentTypeOf(framing: Framing, boundary: string): string {
  if (framing === 'noBoundaryParam') return 'multipart/form-data';
  if (framing === 'emptyBoundary') return 'multipart/form-data; boundary=';
  if (framing === 'wrongBoundary') return 'multipart/form-data; boundary=someotherboundary';
  return `multipart/form-data; boundary=${boundary}`;
}

function contentOf(part: Part, resolve: ResolveRef): Buffer {
  const content = part.content instanceof Ref ? resolve(part.content) : part.content;
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  switch (part.spoil) {
    case 'truncate':
      return bytes.subarray(0, Math.floor(bytes.length / 2));
    case 'nul':
      return Buffer.concat([
        bytes.subarray(0, 40),
        Buffer.from('\u0000\u0000\n\u0000,\u0000\n'),
        bytes.subarray(40),
      ]);
    case 'strayQuote':
      return Buffer.concat([Buffer.from('"'), bytes, Buffer.from('\n"unclosed,"x""\n')]);
    case 'invalidUtf8':
      return Buffer.concat([
        bytes.subarray(0, 30),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        bytes.subarray(30),
      ]);
    case 'bom16':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
    default:
      return bytes;
  }
}

/** File contents that break parsers: empty, NUL rows, stray quotes, deep JSON, huge lines, wide headers. */
export const hostileFile: Arbitrary<string | Buffer> = fc.constantFrom<string | Buffer>(
  '',
  '\u0000',
  'firstName,email\n\u0000\u0000\n,\u0000\n',
  'firstName,email\n"Ada,ada@example.com\n',
  'first"Name,email\nA"da,"b"c"\n',
  'firstName,email\n',
  `firstName\n${'x'.repeat(1024 * 1024)}`,
  Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(','),
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"contacts":${'['.repeat(5000)}${']'.repeat(5000)}}`,
  '[1,2,3]',
  '[null]',
  'null',
  '{"contacts":"x"}',
  '{}',
  '{"SurveyEntry":null}',
  '{"SurveyEntry":{},"SurveyElements":[{"Element":"SQ","Payload":null}]}',
  '{"SurveyElements":[{"Element":"FL","Payload":{"Flow":[{"Type":"Block","ID":"BL_1"}]}}]}',
  Buffer.from([0xff, 0xfe, 0x00, 0x00, 0xc3, 0x28]),
  'StartDate,EndDate\nImportId\n{"ImportId":"startDate"}\n',
);

export const framing: Arbitrary<Framing> = fc.constantFrom(
  'noClosing',
  'wrongBoundary',
  'noBoundaryParam',
  'emptyBoundary',
  'longBoundary',
  'lfOnly',
  'noHeaders',
);

export const spoil: Arbitrary<Spoil> = fc.constantFrom(
  'truncate',
  'nul',
  'strayQuote',
  'invalidUtf8',
  'bom16',
);

const part: Arbitrary<Part> = fc.record(
  {
    name: fc.constantFrom('file', 'name', 'surveyId', 'format', 'upload', 'na"me', '', '\u0000'),
    filename: fc.constantFrom(
      'x.csv',
      'x.json',
      'survey.qsf',
      '../../etc/passwd',
      'a\u0000.csv',
      'x'.repeat(300),
      '',
    ),
    contentType: fc.constantFrom(
      'text/csv',
      'application/json',
      'application/octet-stream',
      'text/plain; charset=utf-16le',
    ),
    content: fc.oneof(hostileFile, hostileString),
  },
  { requiredKeys: ['name', 'content'] },
);

/** Multipart bodies with the wrong parts (none, unknown, odd names, too many) and broken framing. */
export const hostileMultipart: Arbitrary<MultipartBody> = fc.record({
  kind: fc.constant('multipart' as const),
  parts: fc.oneof(
    { weight: 4, arbitrary: fc.array(part, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.constant(Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, content: 'x' }))),
    },
  ),
  framing: fc.oneof(fc.constant('ok' as const), framing),
});
