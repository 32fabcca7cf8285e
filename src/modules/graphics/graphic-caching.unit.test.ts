import { describe, expect, it } from 'vitest';
import { cacheHeaders, etagMatches } from './graphic-caching.js';
import { graphicUrl } from './graphics.service.js';

describe('etagMatches', () => {
  const etag = '"abc123"';
  it('matches the same tag, weakly, in a list, or *', () => {
    expect(etagMatches('"abc123"', etag)).toBe(true);
    expect(etagMatches('W/"abc123"', etag)).toBe(true);
    expect(etagMatches('"x", "abc123"', etag)).toBe(true);
    expect(etagMatches(['"x"', ' "abc123" '], etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
  });
  it('matches nothing else', () => {
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches('', etag)).toBe(false);
    expect(etagMatches('"abc1234"', etag)).toBe(false);
    expect(etagMatches('abc123', etag)).toBe(false);
  });
});

it('cache headers: public, immutable, with the ETag and nosniff', () => {
  expect(cacheHeaders('"e"')).toMatchObject({
    'cache-control': 'public, max-age=86400, immutable',
    etag: '"e"',
    'x-content-type-options': 'nosniff',
  });
});

it('graphicUrl puts the id under /graphics at the base, with or without a trailing slash', () => {
  expect(graphicUrl('https://survey.example.com', { id: 'IM_abc' })).toBe(
    'https://survey.example.com/graphics/IM_abc',
  );
  expect(graphicUrl('https://survey.example.com/', { id: 'IM_abc' })).toBe(
    'https://survey.example.com/graphics/IM_abc',
  );
});
