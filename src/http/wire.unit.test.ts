import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { httpStatusText } from './envelope.js';
import { describeValidation } from './error-handler.js';
import { newId, randomAlphanumeric } from './ids.js';
import { nextPageUrl, pagedResult } from './paging.js';

const request = (url: string, host = 'api.example.com', protocol = 'https') =>
  ({ url, host, protocol }) as unknown as FastifyRequest;

describe('httpStatusText', () => {
  it('writes "<code> - <reason>" with one space each side of the hyphen', () => {
    expect(httpStatusText(200)).toBe('200 - OK');
    expect(httpStatusText(404)).toBe('404 - Not Found');
    expect(httpStatusText(429)).toBe('429 - Too Many Requests');
  });
});

describe('identifiers', () => {
  it('are a prefix, an underscore and 15 alphanumerics', () => {
    for (let i = 0; i < 200; i++) expect(newId('SV')).toMatch(/^SV_[A-Za-z0-9]{15}$/);
    expect(newId('POOL')).toMatch(/^POOL_[A-Za-z0-9]{15}$/);
  });

  it('use every character of the alphabet', () => {
    const seen = new Set(randomAlphanumeric(20_000));
    expect(seen.size).toBe(62);
  });
});

describe('paging', () => {
  it("keeps the caller's query parameters and replaces the offset", () => {
    const url = nextPageUrl(request('/API/v3/users?pageSize=2&offset=4&includeX=1'), 6);
    expect(url).toBe('https://api.example.com/API/v3/users?pageSize=2&offset=6&includeX=1');
  });

  it('does not read a path that starts with a doubled slash as a host', () => {
    expect(nextPageUrl(request('//API/v3/users'), 100)).toBe(
      'https://api.example.com//API/v3/users?offset=100',
    );
  });

  it('uses the extra row only to know a next page exists', () => {
    const page = { offset: 0, limit: 2 };
    expect(pagedResult(request('/x'), page, [1, 2, 3])).toEqual({
      elements: [1, 2],
      nextPage: 'https://api.example.com/x?offset=2',
    });
    expect(pagedResult(request('/x'), page, [1, 2])).toEqual({ elements: [1, 2], nextPage: null });
  });
});

describe('describeValidation', () => {
  it('names the field of each kind of schema error', () => {
    expect(
      describeValidation(
        [{ instancePath: '/pageSize', message: 'must be >= 1', keyword: 'minimum' }],
        'querystring',
      ),
    ).toBe('Invalid request: pageSize must be >= 1.');
    expect(
      describeValidation(
        [{ instancePath: '/header', keyword: 'required', params: { missingProperty: 'subject' } }],
        'body',
      ),
    ).toBe('Invalid request: header.subject is required.');
    expect(
      describeValidation([{ instancePath: '', message: 'must be object', keyword: 'type' }], 'body'),
    ).toBe('Invalid request: body must be object.');
  });
});
