import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './redact-url.js';

const TOKEN = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f';

describe('redactUrl', () => {
  it.each([
    [`/jfe/form/SV_abc/l/${TOKEN}`, `/jfe/form/SV_abc/l/${REDACTED}`],
    [`/jfe/form/SV_abc/l/${TOKEN}/`, `/jfe/form/SV_abc/l/${REDACTED}/`],
    [`/jfe/form/SV_abc/l/${TOKEN}?Q_Language=EN`, `/jfe/form/SV_abc/l/${REDACTED}?Q_Language=EN`],
    [`/jfe//form/SV_abc//l//${TOKEN}`, `/jfe//form/SV_abc//l//${REDACTED}`],
    [`/jfe/form/SV_abc/%6C/${TOKEN}`, `/jfe/form/SV_abc/%6C/${REDACTED}`],
    [`/JFE/FORM/SV_abc/L/${TOKEN}`, `/JFE/FORM/SV_abc/L/${REDACTED}`],
  ])('takes the individual-link token out of %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    ['/x?token=abc&page=2', `/x?token=${REDACTED}&page=2`],
    ['/x?access_token=abc', `/x?access_token=${REDACTED}`],
    ['/x?X-API-TOKEN=abc', `/x?X-API-TOKEN=${REDACTED}`],
    ['/x?api%5Fkey=abc', `/x?api%5Fkey=${REDACTED}`],
    [
      '/x?password=a&secret=b&signature=c',
      `/x?password=${REDACTED}&secret=${REDACTED}&signature=${REDACTED}`,
    ],
    ['/x?continuationToken=abc', `/x?continuationToken=${REDACTED}`],
  ])('takes the value of a secret-named query parameter out of %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    '/API/v3/surveys/SV_abc/responses?offset=100&pageSize=10',
    '/jfe/form/SV_abc?name=value&Q_Language=EN',
    '/API/v3/mailinglists/CG_1/contacts?includeEmbedded=true',
    '/jfe/static/fieldwork.css',
    '/x?%zz=1&flag',
  ])('leaves a URL without secrets as it is: %s', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});
