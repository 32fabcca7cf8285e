import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { dialectOf } from '../../src/db/dialect/index.js';
import { openTestDatabase } from '../helpers/test-app.js';

/**
 * The dialect's numberedInsert (decision 0023): rows inserted with a number from a sequence, in row order.
 * PostgreSQL reads the rows from one JSON parameter, SQLite from a VALUES list: what is stored is the same.
 */
let database: Db;
let drop: () => Promise<void>;
const NUMBERED = { column: 'n', sequence: 'ni_seq' };

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  await sql`create table ni_rows (id text primary key, n integer not null, note text, amount integer,
    label text default 'x')`.execute(database.db);
  await dialectOf(database.db).createSequence(database.db, 'ni_seq', 100);
});
afterAll(async () => {
  await database.close();
  await drop();
});

interface Stored {
  id: string;
  n: number;
  note: string | null;
  amount: number | null;
  label: string | null;
}

async function stored(prefix: string): Promise<Stored[]> {
  const { rows } = await sql<Stored>`select id, n, note, amount, label from ni_rows
    where id like ${`${prefix}%`} order by id`.execute(database.db);
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

async function insert(rows: Record<string, unknown>[]): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    const dialect = dialectOf(trx);
    await dialect.runWrites(trx, [await dialect.numberedInsert(trx, 'ni_rows', rows, NUMBERED)]);
  });
}

it('numbers 700 rows in their order and stores every text and number as given', async () => {
  const texts = [
    `it's "quoted", a \\ backslash`,
    '$1 and ? and :name',
    '{"a":1,"b":[true,null]}',
    'a literal \\u0041 escape, not an A',
    'line one\nline two\ttabbed',
    'émoji 🙂 and 中文',
    '',
  ];
  // Ids sort in row order; the rows are given shuffled against the ids' order to be sure.
  const rows = Array.from({ length: 700 }, (_, i) => ({
    id: `a${String(699 - i).padStart(4, '0')}`,
    note: texts[i % texts.length],
    amount: i % 3 === 0 ? null : i * 1000,
  }));
  await insert(rows);
  const back = await stored('a');
  expect(back).toHaveLength(700);
  const byId = new Map(back.map((row) => [row.id, row]));
  const numbers = rows.map((row) => byId.get(row.id)?.n as number);
  // In row order, each above the one before, none reused, and above where the sequence started.
  for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBeGreaterThan(numbers[i - 1] as number);
  expect(numbers[0]).toBeGreaterThan(100);
  for (const row of rows) {
    const got = byId.get(row.id);
    expect(got?.note).toBe(row.note);
    expect(got?.amount === null ? null : Number(got?.amount)).toBe(row.amount);
    // A column no row names keeps its default.
    expect(got?.label).toBe('x');
  }
});

it('a column one row names and another leaves out is null in the other', async () => {
  await insert([
    { id: 'b1', note: 'named', label: 'own' },
    { id: 'b2', note: 'left out' },
    { id: 'b3', note: 'undefined', label: undefined },
  ]);
  expect((await stored('b')).map((row) => [row.id, row.label])).toEqual([
    ['b1', 'own'],
    ['b2', null],
    ['b3', null],
  ]);
});

it('inserts run together number each insert in its own order, and never reuse a number', async () => {
  await database.db.transaction().execute(async (trx) => {
    const dialect = dialectOf(trx);
    const rows = (prefix: string) =>
      Array.from({ length: 50 }, (_, i) => ({ id: `${prefix}${String(i).padStart(2, '0')}`, note: prefix }));
    await dialect.runWrites(trx, [
      await dialect.numberedInsert(trx, 'ni_rows', rows('c'), NUMBERED),
      await dialect.numberedInsert(trx, 'ni_rows', rows('d'), NUMBERED),
    ]);
  });
  const all = [...(await stored('c')), ...(await stored('d'))];
  expect(new Set(all.map((row) => row.n)).size).toBe(100);
  for (const prefix of ['c', 'd']) {
    const numbers = all.filter((row) => row.id.startsWith(prefix)).map((row) => row.n);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  }
});

it('a row whose key is taken fails the insert as a unique violation, and nothing of it is stored', async () => {
  await insert([{ id: 'f0' }]);
  const failure = await insert([{ id: 'e1' }, { id: 'f0' }]).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(dialectOf(database.db).isUniqueViolation(failure)).toBe(true);
  expect(await stored('e')).toEqual([]);
});
