import { expect, it } from 'vitest';
import { toUserRecord } from './users.schemas.js';
import type { UserRow } from './users.store.js';

const row = (firstName: string): UserRow => ({
  id: 'UR_0123456789abcde',
  organization_id: 'brand',
  division_id: null,
  username: 'ada',
  email: 'ada@example.com',
  first_name: firstName,
  last_name: 'Lovelace',
  user_type: 'UT_BRANDADMIN',
  language: 'en',
  time_zone: null,
  account_status: 'active',
  unsubscribed: 0,
  password_hash: null,
  created_at: '2026-01-01T00:00:00Z',
  account_expiration_date: null,
  password_last_changed_date: null,
  password_expiration_date: null,
  last_login_date: null,
  response_count_auditable: 1,
  response_count_generated: 2,
  response_count_deleted: 3,
});

it("builds a kept (frozen) row's record once, frozen to its leaves", () => {
  const kept = Object.freeze(row('Ada'));
  const record = toUserRecord(kept);
  expect(toUserRecord(kept)).toBe(record);
  expect(Object.isFrozen(record.responseCounts)).toBe(true);
  expect(Object.isFrozen(record.permissions.controlPanel?.accountPermissions?.accessApi)).toBe(true);
  expect(record).toMatchObject({
    firstName: 'Ada',
    responseCounts: { auditable: 1, generated: 2, deleted: 3 },
  });
});

it('builds a fresh record for a row that is not kept, and for a new kept row', () => {
  const fresh = row('Ada');
  expect(toUserRecord(fresh)).not.toBe(toUserRecord(fresh));
  expect(Object.isFrozen(toUserRecord(fresh))).toBe(false);
  expect(toUserRecord(Object.freeze(row('Grace'))).firstName).toBe('Grace');
});
