import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import { expect } from 'vitest';
import type { ResponsesTable } from '../../src/modules/responses/responses.tables.js';
import type { TestApp } from './test-app.js';

const unique = () => randomBytes(4).toString('hex');

/** A user of the admin's organisation, with a fresh token of its own. */
export async function createUserWithToken(
  t: TestApp,
  adminToken: string,
  userType: 'UT_BRANDADMIN' | 'UT_PARTICIPANT' = 'UT_PARTICIPANT',
): Promise<{ userId: string; token: string }> {
  const suffix = unique();
  const created = await t.call(adminToken, 'POST', '/API/v3/users', {
    username: `user-${suffix}`,
    firstName: 'Test',
    lastName: `User ${suffix}`,
    userType,
    email: `user-${suffix}@example.com`,
    password: 'correct horse battery',
  });
  expect(created.status).toBe(200);
  const userId = created.body.result.id as string;
  const token = await t.call(adminToken, 'POST', `/API/v3/users/${userId}/apitoken`);
  expect(token.status).toBe(200);
  return { userId, token: token.body.result.apiToken as string };
}

/**
 * A finished anonymous response row recorded at `at` (started and ended then), for tests that write
 * the table directly to reach states the API cannot; `overrides` set any other column.
 */
export function responseRow(
  row: { id: string; organizationId: string; surveyId: string; seq: number; at: string },
  values: Record<string, unknown>,
  overrides: Partial<Insertable<ResponsesTable>> = {},
): Insertable<ResponsesTable> {
  return {
    id: row.id,
    organization_id: row.organizationId,
    survey_id: row.surveyId,
    seq: row.seq,
    status: 0,
    finished: 1,
    progress: 100,
    duration: 0,
    start_date: row.at,
    end_date: row.at,
    recorded_date: row.at,
    ip_address: null,
    user_agent: null,
    user_language: null,
    recipient_id: null,
    distribution_id: null,
    distribution_channel: 'anonymous',
    session_id: null,
    values: JSON.stringify(values),
    labels: '{}',
    displayed_fields: '[]',
    displayed_values: '{}',
    embedded_data: '{}',
    updated_at: row.at,
    ...overrides,
  };
}
