import { Argument, Command, Option } from 'commander';
import { ConfigError, readConfig } from './config.js';
import { applyHeapGrowth } from './heap-growth.js';
import { openMigrated } from './open-database.js';
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
  .option(
    '--datacenter <id>',
    "this deployment's data-center id, like fra1 (env FIELDWORK_DATACENTER, default loc1)",
  )
  .option(
    '--datacenter-peers <list>',
    'the other data centers, id=url,id=url: misdirected calls go there (env FIELDWORK_DATACENTER_PEERS)',
  )
  .addOption(new Option('--role <role>', 'all, api or worker (env FIELDWORK_ROLE)'))
  .option(
    '--allow-private-targets',
    'let webhooks reach private and loopback addresses (env FIELDWORK_ALLOW_PRIVATE_TARGETS=1)',
  )
  .option(
    '--export-retention-hours <hours>',
    'keep response export files this long (env FIELDWORK_EXPORT_RETENTION_HOURS, default 24)',
  )
  .option(
    '--import-max-bytes <bytes>',
    'largest contact or response import file taken (env FIELDWORK_IMPORT_MAX_BYTES, default 1 GiB)',
  )
  .option(
    '--webhook-concurrency <n>',
    'webhook POSTs in flight at once in this process, over all receivers (env FIELDWORK_WEBHOOK_CONCURRENCY, default 512)',
  )
  .option(
    '--webhook-receiver-min <n>',
    'fewest in flight to one receiver, however it answers (env FIELDWORK_WEBHOOK_RECEIVER_MIN, default 1)',
  )
  .option(
    '--webhook-receiver-max <n>',
    'most in flight to one receiver, however fast it answers (env FIELDWORK_WEBHOOK_RECEIVER_MAX, default 256)',
  )
  .option(
    '--blob-store <kind>',
    'where job files, exports and uploads live: directory or database (env FIELDWORK_BLOB_STORE, default directory)',
  )
  .option(
    '--smtp-url <url>',
    'SMTP server distributions send through, smtp:// or smtps:// with user:password@ (env SMTP_URL; default: .eml files in the blob store)',
  )
  .option(
    '--rate-limit <n>',
    'requests a minute per organisation, 0 for none (env FIELDWORK_RATE_LIMIT; default 3000 with PostgreSQL, 0 embedded)',
  )
  .option('--redis-url <url>', 'Redis that API nodes share for rate limits (env REDIS_URL)')
  .option(
    '--heap-growth <percent>',
    'percent the JavaScript heap may grow between full collections, 0 leaves V8’s own (env FIELDWORK_HEAP_GROWTH, default 50)',
  )
  .action(async (flags) => {
    const config = readConfig(flags);
    // Before the application loads: the collections made while it loads set the heap's first limits.
    applyHeapGrowth(config.heapGrowthPercent);
    // Loaded on demand: the other commands start without the whole HTTP application.
    const { closeOnSignals, startServer } = await import('./server.js');
    const server = await startServer(config);
    // Before the line that says it listens: a signal sent on reading it must find its listener.
    closeOnSignals(server, (line) => process.stderr.write(`${line}\n`));
    print(server.startText);
  });

program
  .command('migrate')
  .description('run pending database migrations and exit')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (flags) => {
    const { database, applied } = await openMigrated(readConfig(flags));
    await database.close();
    print(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
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
  .action(async (flags) => (await commands()).runInit(readConfig(flags), flags, print));

program
  .command('token')
  .description(
    'print a new API token for a user: create gives one to a user who has none, rotate replaces the old one',
  )
  .addArgument(new Argument('<action>', 'create or rotate').choices(['create', 'rotate']))
  .option('--user <id>', 'the user, by id (UR_...)')
  .option('--username <name>', 'the user, by username (with --brand when several organizations have it)')
  .option('--brand <id>', 'the organization; alone, its first active brand administrator')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (action: 'create' | 'rotate', flags) =>
    (await commands()).runToken(readConfig(flags), action, pickSelector(flags), print),
  );

const users = program.command('users').description('the users of every organization, for operators');
users
  .command('list')
  .description('list users (tab-separated): brand, id, username, type, status and whether a token exists')
  .option('--brand <id>', 'only this organization')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (flags) => (await commands()).runUsersList(readConfig(flags), flags.brand, print));

const oauthClient = program.command('oauth-client').description('OAuth 2.0 clients (client credentials)');
oauthClient
  .command('create')
  .description(
    'register an OAuth client acting as a user; prints its id and its secret, shown only this once',
  )
  .requiredOption('--scopes <list>', 'scopes, comma- or space-separated: manage:all, read:surveys, ...')
  .option('--user <id>', 'the user it acts as, by id (UR_...)')
  .option('--username <name>', 'the user, by username (with --brand when several organizations have it)')
  .option('--brand <id>', 'the organization; alone, its first active brand administrator')
  .option('--name <name>', 'a name for the client, shown in GET /API/v3/oauth-clients')
  .option('--json', 'print {"clientId","clientSecret"} and nothing else')
  .option('--data <dir>', 'data directory (env FIELDWORK_DATA_DIR)')
  .option('--database-url <url>', 'PostgreSQL URL (env DATABASE_URL)')
  .action(async (flags) =>
    (await commands()).runOAuthClientCreate(readConfig(flags), pickSelector(flags), flags, print),
  );

/** The operator commands, loaded only when one runs. */
const commands = () => import('./cli-commands.js');

function pickSelector(flags: { user?: string; username?: string; brand?: string }) {
  return { user: flags.user, username: flags.username, brand: flags.brand };
}

program.parseAsync(process.argv).catch((error: unknown) => {
  // One line that names the bad setting; no stack trace for a configuration mistake.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`fieldwork: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
