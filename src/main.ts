import { Argument, Command, Option } from 'commander';
import { runInit, runToken } from './cli-commands.js';
import { ConfigError, readConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { closeOnSignals, startServer } from './server.js';
import { VERSION } from './version.js';

const program = new Command('fieldwork')
  .version(VERSION)
  .description('Fieldwork: the v3 survey API, self-hosted');
const print = (line: string) => process.stdout.write(`${line}\n`);

program
  .command('serve')
  .description('migrate the database, then serve the API (and run the workers)')
  .option('--port <port>', 'port to listen on (env PORT, default 8080; 0 picks a free one)')
  .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
  .option(
    '--data <dir>',
    'data directory for the embedded database and files (env FIELDWORK_DATA_DIR, default ./data)',
  )
  .option('--database-url <url>', 'PostgreSQL URL instead of the embedded database (env DATABASE_URL)')
  .option('--tls-cert <file>', 'TLS certificate, PEM (env FIELDWORK_TLS_CERT)')
  .option('--tls-key <file>', 'TLS private key, PEM (env FIELDWORK_TLS_KEY)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env LOG_LEVEL)')
  .option('--trust-proxy', 'honour X-Forwarded-Proto and X-Forwarded-Host (env FIELDWORK_TRUST_PROXY=1)')
  .option('--datacenter <id>', 'data-center id reported by whoami (env FIELDWORK_DATACENTER, default loc1)')
  .addOption(new Option('--role <role>', 'all, api or worker (env FIELDWORK_ROLE)'))
  .option(
    '--allow-private-targets',
    'let webhooks reach private and loopback addresses (env FIELDWORK_ALLOW_PRIVATE_TARGETS=1)',
  )
  .option(
    '--export-retention-hours <hours>',
    'keep response export files this long (env FIELDWORK_EXPORT_RETENTION_HOURS, default 24)',
  )
  .action(async (flags) => {
    const server = await startServer(readConfig(flags), print);
    closeOnSignals(server, (line) => process.stderr.write(`${line}\n`));
  });

program
  .command('migrate')
  .description('run pending database migrations and exit')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (flags) => {
    const config = readConfig(flags);
    const database = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const applied = await migrateToLatest(database.db);
      print(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
    } finally {
      await database.close();
    }
  });

program
  .command('init')
  .description('create an organization, its default directory and a brand administrator with an API token')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .option('--brand <id>', 'organization (brand) id, a short lowercase word', 'fieldwork')
  .option('--name <name>', 'organization display name')
  .option('--target-audience', 'enable the target-audience product variant (spec 1.7)')
  .option('--json', 'print {"brandId","userId","apiToken","directoryId"} and nothing else')
  .action(async (flags) => runInit(readConfig(flags), flags, print));

program
  .command('token')
  .description('create or rotate the API token of a user; prints the new token')
  .addArgument(new Argument('<action>', 'create or rotate').choices(['create', 'rotate']))
  .requiredOption('--user <id>', 'user id (UR_...)')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (action: string, flags) => runToken(readConfig(flags), action, flags.user, print));

program.parseAsync(process.argv).catch((error: unknown) => {
  // One line that names the bad setting; no stack trace for a configuration mistake.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`fieldwork: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
