import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { sqliteHandleOf } from './database.js';
import type { Database } from './schema.js';

type Read<Row> = (db: Kysely<Database>, key: string) => Promise<Row | undefined>;

/**
 * A read whose found rows are kept until the database changes, on SQLite: every call first asks SQLite
 * whether anything was written since the rows were read (this connection's `total_changes()`, and
 * `PRAGMA data_version`, which moves when another connection or process commits), and forgets them all
 * if so. A kept row is therefore never older than the last write anywhere, which is what reading it again
 * would give. On PostgreSQL several servers share the database and nothing tells one of another's
 * commit cheaply, so every call reads. Rows are frozen: callers share them.
 */
export function cachedRead<Row extends object>(read: Read<Row>, maxEntries = 10_000): Read<Row> {
  const caches = new WeakMap<Kysely<Database>, ReadCache<Row> | null>();
  return async (db, key) => {
    let cache = caches.get(db);
    if (cache === undefined) {
      const handle = sqliteHandleOf(db);
      cache = handle ? new ReadCache<Row>(handle, maxEntries) : null;
      caches.set(db, cache);
    }
    if (!cache) return read(db, key);
    // Taken before reading: a write while the read is in flight moves it, and the row is dropped.
    const mark = cache.mark();
    if (mark !== undefined) {
      const kept = cache.get(key);
      if (kept) return kept;
    }
    const row = await read(db, key);
    if (row && mark !== undefined) cache.set(key, Object.freeze(row), mark);
    return row;
  };
}

class ReadCache<Row> {
  private readonly totalChanges: Statement;
  private readonly dataVersion: Statement;
  private readonly rows = new Map<string, Row>();
  private changes = -1;
  private version = -1;
  /** Moves each time the kept rows are dropped: a mark names the state the database was in. */
  private generation = 0;

  constructor(
    handle: SqliteHandle,
    private readonly maxEntries: number,
  ) {
    this.totalChanges = handle.prepare('SELECT total_changes()').pluck();
    this.dataVersion = handle.prepare('PRAGMA data_version').pluck();
  }

  /**
   * Where the database stands now; the kept rows go if it moved. Undefined when SQLite cannot answer
   * (the connection is busy with a streamed query): then nothing is kept or served from here.
   */
  mark(): number | undefined {
    let changes: number;
    let version: number;
    try {
      changes = this.totalChanges.get() as number;
      version = this.dataVersion.get() as number;
    } catch {
      this.drop(-1, -1);
      return undefined;
    }
    if (changes !== this.changes || version !== this.version) this.drop(changes, version);
    return this.generation;
  }

  private drop(changes: number, version: number): void {
    this.rows.clear();
    this.changes = changes;
    this.version = version;
    this.generation++;
  }

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  /** Kept only if nothing was written since `mark` was taken (the read may have waited its turn). */
  set(key: string, row: Row, mark: number): void {
    if (this.mark() !== mark) return;
    if (this.rows.size >= this.maxEntries) this.rows.clear();
    this.rows.set(key, row);
  }
}
