import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimDue } from '../../src/db/claim.js';
import type { Db } from '../../src/db/database.js';
import { openTestDatabase } from '../helpers/test-app.js';

let database: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  await sql`create table work_items (id text primary key, status text not null, due_at text not null,
    lease_until text, lease_owner text)`.execute(database.db);
});
afterAll(async () => {
  await database.close();
  await drop();
});

const at = (iso: string) => new Date(iso);

it('claims due, unleased rows in due order, up to the limit, and leases them', async () => {
  const db = database.db;
  await sql`insert into work_items (id, status, due_at) values
    ('a', 'pending', '2026-01-01T00:00:01.000Z'), ('b', 'pending', '2026-01-01T00:00:00.000Z'),
    ('c', 'pending', '2026-01-01T00:10:00.000Z'), ('d', 'done', '2026-01-01T00:00:00.000Z'),
    ('e', 'pending', '2026-01-01T00:00:02.000Z')`.execute(db);
  const now = at('2026-01-01T00:01:00Z');
  const options = { table: 'work_items', now, leaseMs: 30_000, limit: 2 };
  const first = await claimDue<{ id: string; lease_owner: string }>(db, { ...options, owner: 'w1' });
  expect(first.map((r) => r.id).sort()).toEqual(['a', 'b']);
  expect(first.every((r) => r.lease_owner === 'w1')).toBe(true);

  const second = await claimDue<{ id: string }>(db, { ...options, owner: 'w2' });
  expect(second.map((r) => r.id)).toEqual(['e']);
  expect(await claimDue(db, { ...options, owner: 'w3' })).toEqual([]);

  // A lease that ran out (its worker died) makes the row claimable again.
  const later = await claimDue<{ id: string }>(db, {
    ...options,
    owner: 'w4',
    now: at('2026-01-01T00:02:00Z'),
  });
  expect(later.map((r) => r.id).sort()).toEqual(['a', 'b']);
});

it('never gives the same row to two concurrent claimers', async () => {
  const db = database.db;
  const values = Array.from(
    { length: 200 },
    (_, i) => `('m${i}', 'pending', '2026-02-01T00:00:00.000Z')`,
  ).join(',');
  await sql.raw(`insert into work_items (id, status, due_at) values ${values}`).execute(db);
  const now = at('2026-02-01T00:00:01Z');
  const claims = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      claimDue<{ id: string }>(db, { table: 'work_items', owner: `w${i}`, now, leaseMs: 60_000, limit: 40 }),
    ),
  );
  const ids = claims
    .flat()
    .map((r) => r.id)
    .filter((id) => id.startsWith('m'));
  expect(ids).toHaveLength(200);
  expect(new Set(ids).size).toBe(200);
});
