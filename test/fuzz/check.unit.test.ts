import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerProblem, scopeProblem, storeProblem } from './check.js';
import { Ref } from './json-text.js';
import type { Plan } from './plan.js';

// The rules every fuzzed answer is held to: each must reject what it is there to reject.

function answer(status: number, body: unknown, contentType = 'application/json; charset=utf-8') {
  return {
    statusCode: status,
    headers: { 'content-type': contentType, 'x-request-id': 'req-1' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  } as unknown as LightMyRequestResponse;
}

const envelope = (status: string, error: Record<string, string>) => ({
  meta: { httpStatus: status, error, requestId: 'req-1' },
});

describe('answerProblem', () => {
  it('passes a success and an error in the v3 envelope with a documented code', () => {
    expect(answerProblem(answer(200, { result: {}, meta: {} }))).toBeUndefined();
    const notFound = envelope('404 - Not Found', { errorMessage: 'Survey not found.', errorCode: 'GSI_2' });
    expect(answerProblem(answer(404, notFound))).toBeUndefined();
  });

  it('passes the unknown-route 404, which has no errorCode (COMPAT.md)', () => {
    const unknown = envelope('404 - Not Found', { errorMessage: 'The requested resource does not exist.' });
    expect(answerProblem(answer(404, unknown))).toBeUndefined();
  });

  it('fails any 5xx, even in the envelope', () => {
    const crash = envelope('500 - Internal Server Error', { errorMessage: 'x', errorCode: 'FW_SRV_1' });
    expect(answerProblem(answer(500, crash))).toBe('server error 500');
  });

  it('fails an error in Fastify’s own shape, or not JSON', () => {
    const fastify = { statusCode: 400, code: 'FST_ERR_BAD_URL', error: 'Bad Request', message: 'bad' };
    expect(answerProblem(answer(400, fastify))).toBe('error has no meta');
    expect(answerProblem(answer(400, 'Bad Request', 'text/plain'))).toMatch(/not JSON/);
  });

  it('fails an error with a result, a code not in ERROR_CODES, a code of another status, or no code', () => {
    const valid = envelope('400 - Bad Request', { errorMessage: 'x', errorCode: 'FW_VAL_1' });
    expect(answerProblem(answer(400, { ...valid, result: {} }))).toMatch(/keys beside meta/);
    const unknownCode = envelope('400 - Bad Request', { errorMessage: 'x', errorCode: 'FW_NOPE_1' });
    expect(answerProblem(answer(400, unknownCode))).toMatch(/not in ERROR_CODES/);
    expect(
      answerProblem(
        answer(413, envelope('413 - Payload Too Large', { errorMessage: 'x', errorCode: 'FW_VAL_1' })),
      ),
    ).toMatch(/documented as 400/);
    expect(answerProblem(answer(400, envelope('400 - Bad Request', { errorMessage: 'x' })))).toMatch(
      /without errorCode/,
    );
  });

  it('fails a httpStatus that does not match the status, and a requestId that differs from the header', () => {
    const wrongText = envelope('400 - Bad request', { errorMessage: 'x', errorCode: 'FW_VAL_1' });
    expect(answerProblem(answer(400, wrongText))).toMatch(/httpStatus/);
    const otherId = {
      meta: {
        ...envelope('400 - Bad Request', { errorMessage: 'x', errorCode: 'FW_VAL_1' }).meta,
        requestId: 'other',
      },
    };
    expect(answerProblem(answer(400, otherId))).toMatch(/requestId/);
  });
});

describe('storeProblem and scopeProblem', () => {
  const plan = (overrides: Partial<Plan>): Plan => ({
    variant: 'hostile',
    path: { surveyId: { from: 'seeded', pick: 0 } },
    query: [],
    rawQuery: '',
    auth: 'admin',
    body: { kind: 'none' },
    mutations: [],
    ...overrides,
  });

  it('fails a refused call that changed rows, and passes one that went through', () => {
    expect(storeProblem(400, ['users'])).toMatch(/changed rows of users/);
    expect(storeProblem(400, [])).toBeUndefined();
    expect(storeProblem(200, ['users'])).toBeUndefined();
  });

  it('passes a call of the organisation on its own resources, and any refused call', () => {
    expect(scopeProblem(plan({}), 200)).toBeUndefined();
    expect(
      scopeProblem(plan({ auth: 'foreign', path: { surveyId: { from: 'foreign', pick: 0 } } }), 200),
    ).toBeUndefined();
    expect(scopeProblem(plan({ path: { surveyId: { from: 'foreign', pick: 0 } } }), 404)).toBeUndefined();
  });

  it('fails a 2xx to another organisation’s id, token or referenced id, or without a valid token', () => {
    expect(scopeProblem(plan({ path: { surveyId: { from: 'foreign', pick: 0 } } }), 200)).toMatch(
      /another organisation/,
    );
    expect(scopeProblem(plan({ auth: 'foreign' }), 200)).toMatch(/another organisation/);
    const body = {
      kind: 'json' as const,
      value: { ownerId: new Ref('user') },
      contentType: 'application/json',
    };
    expect(scopeProblem(plan({ auth: 'foreign', path: {}, body }), 200)).toMatch(/another organisation/);
    expect(scopeProblem(plan({ auth: 'none' }), 200)).toMatch(/without a valid token/);
  });
});
