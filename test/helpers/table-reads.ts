import { type KyselyPlugin, SelectQueryNode, TableNode } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { buildTestApp, openTestDatabase, type TestApp } from './test-app.js';

/** One select as the database saw it: asked for (compiled and sent), or answered. */
export interface TableRead {
  step: 'ask' | 'answer';
  /** The first table the select reads from. */
  table: string;
  /** An answer's rows: the very array the caller gets (Kysely hands it on as the driver made it). */
  rows?: readonly unknown[];
}

/**
 * The database with every select noted, in order, as it is asked for and as it answers: for tests of
 * which reads a path makes, how many, and whether they overlap. `reads` is the tests' own to clear.
 */
export function notingReads(database: Db): { database: Db; reads: TableRead[] } {
  const reads: TableRead[] = [];
  const asked = new Map<object, string>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      const from = SelectQueryNode.is(node) ? node.from?.froms[0] : undefined;
      if (from && TableNode.is(from)) {
        const table = from.table.identifier.name;
        asked.set(queryId, table);
        reads.push({ step: 'ask', table });
      }
      return node;
    },
    transformResult: async ({ queryId, result }) => {
      const table = asked.get(queryId);
      if (table !== undefined) {
        asked.delete(queryId);
        reads.push({ step: 'answer', table, rows: result.rows });
      }
      return result;
    },
  };
  return { database: { ...database, db: database.db.withPlugin(plugin) }, reads };
}

/** How many selects of `table` were asked for. */
export const readsOf = (reads: readonly TableRead[], table: string): number =>
  reads.filter((read) => read.step === 'ask' && read.table === table).length;

/** A test app on a fresh database that notes its reads (notingReads); `close` ends the app and drops the database. */
export async function appNotingReads(): Promise<{ t: TestApp; reads: TableRead[]; close(): Promise<void> }> {
  const opened = await openTestDatabase();
  const noting = notingReads(opened.database);
  const t = await buildTestApp({ database: noting.database });
  const close = async () => {
    await t.close();
    await opened.drop();
  };
  return { t, reads: noting.reads, close };
}
