import type {
  Compilable,
  Kysely,
  OperationNodeSource,
  RawBuilder,
  SelectQueryBuilder,
  Transaction,
} from 'kysely';

// The dialect works on any database type (and on any table's rows).
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyDatabase = any;

/**
 * A statement that writes and whose result nobody reads: an insert, update or delete builder, made on the
 * transaction it runs in (runWrites).
 */
export type Write = Compilable & OperationNodeSource;

/**
 * Every difference between the two engines, as named functions (issue 18 item 2): `sqlite.ts` and
 * `postgres.ts` each implement this, `dialectOf(db)` (index.ts) picks one, and no other file asks which
 * engine it runs on (STYLE.md, after Kysely's own dialect overrides).
 */
export interface EngineDialect {
  readonly engine: 'sqlite' | 'postgres';

  /**
   * The row selection of a claim (db/claim.ts). PostgreSQL: rows another worker's claim has locked are
   * skipped, not waited for, so any number of workers claim at once without taking the same row.
   */
  skipLockedRows<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ): SelectQueryBuilder<DB, TB, O>;

  /** One field of a JSON text column, as text (null when absent). Keys never hold quotes or backslashes. */
  jsonField(column: string, key: string): RawBuilder<string | null>;

  /** The SQL text of the n-th (1-based) bound value in a statement written as text (db/bulk-insert.ts). */
  placeholder(position: number): string;

  /**
   * The longest value of each key of a JSON text column, in UTF-8 bytes as `String(value)` writes it
   * (arrays joined by `,`), over the rows `rows` selects (which selects that column as `values`);
   * `newline` replaces CRLF, CR and LF first when given. One aggregate query; 0 for a key no row has.
   */
  longestJsonValues(
    db: Kysely<AnyDatabase>,
    rows: SelectQueryBuilder<AnyDatabase, AnyDatabase, { values: string }>,
    keys: readonly string[],
    newline: string | undefined,
  ): Promise<number[]>;

  /**
   * Serialises changes to the same keys until the transaction ends (PostgreSQL: advisory transaction
   * locks, sorted so two callers cannot deadlock; SQLite runs one write transaction at a time already).
   */
  lockKeys(trx: Transaction<AnyDatabase>, lockClass: number, keys: readonly string[]): Promise<void>;

  /**
   * The shared side of lockKeys: holders of the shared lock never wait for each other, only for a holder
   * of lockKeys on the same key (and it for them) until their transactions end. SQLite: nothing to do.
   */
  shareKeys(trx: Transaction<AnyDatabase>, lockClass: number, keys: readonly string[]): Promise<void>;

  /** Makes a sequence (in a migration) whose first number is `after + 1`; dropSequence undoes it. */
  createSequence(db: Kysely<AnyDatabase>, name: string, after: number): Promise<void>;
  dropSequence(db: Kysely<AnyDatabase>, name: string): Promise<void>;

  /**
   * `count` numbers of a sequence, in increasing order, drawn in one statement: they only grow, are never
   * handed out twice, and drawing them waits for no other transaction (PostgreSQL: a SEQUENCE, which may skip
   * numbers; SQLite, which has none: a row of the `sequences` table, which runs one write transaction at a
   * time anyway).
   */
  nextSequenceValues(db: Kysely<AnyDatabase>, name: string, count: number): Promise<number[]>;

  /**
   * The insert of `rows` into `table`, numbered in `numbered.column` from the sequence `numbered.sequence`
   * in row order, as a write to run (runWrites). The rows are all of the table's shape: a column one row
   * names and another leaves out is null in the other. PostgreSQL: the rows as one JSON parameter
   * (`json_populate_recordset` into the table's row type), numbered by `nextval` in the insert's select
   * after its `ORDER BY` of the rows' order: no statement of its own, and no VALUES list, whose values
   * PostgreSQL parses, binds and plans one by one (decision 0023). SQLite: the numbers drawn now
   * (nextSequenceValues), then a VALUES list.
   */
  numberedInsert(
    db: Kysely<AnyDatabase>,
    table: string,
    rows: readonly Record<string, unknown>[],
    numbered: { column: string; sequence: string },
  ): Promise<Write>;

  /**
   * Runs writes in one round trip where a statement costs one: each write goes through the database's
   * plugins as a statement of its own, then PostgreSQL gets them as one statement of data-modifying CTEs
   * (`WITH w0 AS (...), w1 AS (...) SELECT 1`); SQLite, in-process, runs them one after another. So the
   * writes must not depend on each other's effects (PostgreSQL runs them on one snapshot, in no set order),
   * nor change one row twice; a foreign key between them is checked once all are done. Decision 0021.
   */
  runWrites(db: Kysely<AnyDatabase>, writes: readonly Write[]): Promise<void>;

  /** The column type of raw bytes. */
  readonly binaryType: 'blob' | 'bytea';

  /** How long a batched writer waits to gather a batch: a commit costs more on a server than in-process. */
  readonly writeBatchDelayMs: number;

  /**
   * Whether the engine does its work on the event loop's thread (SQLite: in-process and synchronous). Work
   * meant to overlap the database's then needs a thread of its own (a response import's reader, decision
   * 0017); beside PostgreSQL, which works in its own process, it overlaps from the event loop.
   */
  readonly worksOnEventLoop: boolean;

  /** The schema tables live in (PostgreSQL's current schema; SQLite has none). */
  currentSchema(db: Kysely<AnyDatabase>): Promise<string | undefined>;

  /** A unique-constraint violation raised by this engine's driver. */
  isUniqueViolation(error: unknown): boolean;
}
