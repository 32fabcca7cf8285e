import { TEST_DATABASE_URL, withPgClient } from './postgres.js';

/** The PostgreSQL half of the suite fails loudly, never silently, when the server is not there. */
export default async function setup(): Promise<void> {
  try {
    await withPgClient((client) => client.query('select 1'));
  } catch (error) {
    throw new Error(
      `PostgreSQL is unreachable at ${TEST_DATABASE_URL} (${String(error)}). Start it with ` +
        "'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' or set TEST_DATABASE_URL; " +
        "'npm run test:sqlite' runs the SQLite half alone.",
    );
  }
}
