import { expect } from 'vitest';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

/** `count` calls, a batch of 25 at a time (as concurrent clients would), answered in order. */
export async function callMany(
  t: TestApp,
  token: string,
  method: string,
  url: string,
  count: number,
  body?: unknown,
): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let done = 0; done < count; done += 25) {
    const batch = Math.min(25, count - done);
    answers.push(
      ...(await Promise.all(Array.from({ length: batch }, () => t.call(token, method, url, body)))),
    );
  }
  return answers;
}

/** The IETF draft's headers and Retry-After, as sent. */
export function rateHeaders(res: ApiResponse | undefined) {
  const headers = res?.headers ?? {};
  return {
    limit: headers['ratelimit-limit'],
    remaining: headers['ratelimit-remaining'],
    reset: headers['ratelimit-reset'],
    retryAfter: headers['retry-after'],
  };
}

/** 429 in the v3 envelope with FW_RATE_1, naming the limit; Retry-After whole seconds, at least 1. */
export function expectRefused(res: ApiResponse, calls: string, perMinute: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toEqual({
    meta: {
      httpStatus: '429 - Too Many Requests',
      error: {
        errorCode: 'FW_RATE_1',
        errorMessage: expect.stringContaining(`may make ${perMinute} ${calls} a minute; retry after`),
      },
      requestId: res.headers['x-request-id'],
    },
  });
  expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(res.headers['ratelimit-remaining']).toBe('0');
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
}

/** How many answers had each status: concurrent calls take from a bucket in no fixed order. */
export function statusCounts(answers: ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

/** The RateLimit-Remaining values of the answers, smallest first. */
export function remainingValues(answers: ApiResponse[]): number[] {
  return answers.map((res) => Number(res.headers['ratelimit-remaining'])).sort((a, b) => a - b);
}

/** 0, 1, … n-1. */
export const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);
