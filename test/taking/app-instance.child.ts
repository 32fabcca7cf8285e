/**
 * A second Fieldwork instance in a process of its own (its own module caches), over the database the
 * test names: `{dataDir}` for a SQLite file, or `{databaseUrl, pgSchema}`. Prints its URL once listening;
 * closes when its standard input ends (the test process went away or closed it).
 */
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { createDatabase, type DatabaseOptions } from '../../src/db/database.js';
import { testConfig } from '../helpers/test-app.js';

const options = JSON.parse(process.argv[2] ?? '{}') as DatabaseOptions;
const database = createDatabase(options);
const app = await buildApp({ config: testConfig(), database, clock: systemClock, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
