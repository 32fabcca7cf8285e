// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest } from '../../src/db/database.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { createDirectoryList } from '../contacts/contacts-helpers.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { openCliStorage } from '../events/cli-storage.js';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/poll.js';
import { serveFromSources } from '../helpers/serve-args.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { MESSAGE, ONE_QUESTION } from './distribution-helpers.js';
import { insertListContacts } from './list-contacts-fixture.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

/**
 * Issue 12 item 5 acceptance, with real processes: a `--role worker` node sends a distribution of 2,000
 * to the SMTP server of this test and is killed (SIGKILL) partway; a new worker node finishes it. Every
 * recipient gets exactly one message, counted at the server by Message-ID and by address.
 *
 * The kill comes once the server holds its answers (from the KILL_AT-th message on) and no connection has a
 * message under way: connections wait on a held MAIL, RCPT or end of DATA, rows of the batch wait their
 * turn as `sending`. So the kill never lands in the microseconds between recording a message as sent and
 * writing its final dot, the one window decision 0009 accepts can lose a message: the count is exact, run
 * after run.
 */
const CONTACTS = 2_000;
const KILL_AT = 750;

let storage: { env: Record<string, string>; cleanup(): Promise<void> };
let database: Db;
let t: TestApp;
let org: BootstrapResult;
let sink: SmtpSink;
let listId: string;
let surveyId: string;
const nodes = new Set<StartedServer>();
const dataDirs: string[] = [];
const SECRET_KEY = randomBytes(32).toString('hex');

async function startWorker(): Promise<StartedServer> {
  const data = mkdtempSync(join(tmpdir(), 'fieldwork-mail-worker-'));
  dataDirs.push(data);
  const args = serveFromSources('worker', '--log-level', 'warn');
  // On SQLite the worker shares the test's data directory (its database file); on PostgreSQL, the schema.
  if (storage.env.DATABASE_URL) args.push('--data', data);
  const node = await startCli(process.execPath, args, {
    ...storage.env,
    SMTP_URL: sink.url,
    FIELDWORK_SECRET_KEY: SECRET_KEY,
    FIELDWORK_JOB_LEASE_MS: '1000',
  });
  nodes.add(node);
  return node;
}

beforeAll(async () => {
  storage = await freshStorageEnv();
  database = openCliStorage(storage.env);
  await migrateToLatest(database.db);
  t = await buildTestApp({ database });
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, ONE_QUESTION);
  listId = await createDirectoryList(t, org.apiToken, org.directoryId);
  await insertListContacts(
    database.db,
    { organizationId: org.brandId, directoryId: org.directoryId, listId },
    CONTACTS,
    'crash',
  );
  sink = await startSmtpSink(undefined, (count) => {
    if (count === KILL_AT) sink.hold();
  });
}, 180_000);
afterAll(async () => {
  await Promise.all([...nodes].map((node) => node.stop()));
  await sink?.close();
  await t?.close();
  await storage?.cleanup();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('a distribution of 2,000 whose worker is killed', () => {
  it('resumes on a new worker: every recipient gets exactly one message', { timeout: 150_000 }, async () => {
    const first = await startWorker();
    const created = await t.call(org.apiToken, 'POST', '/API/v3/distributions', {
      message: { messageText: MESSAGE },
      recipients: { mailingListId: listId },
      header: { fromEmail: 'surveys@example.org', subject: 'Hello ${m://FirstName}' },
      surveyLink: { surveyId, type: 'Individual' },
      sendDate: new Date().toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result.id as string;

    // No connection is left with a message under way (each waits on a held answer, or for work): then the worker dies.
    await pollUntil(
      'the worker mid-distribution, no message under way',
      () => {
        const { held, inFlight } = sink.connections();
        return sink.received.length >= KILL_AT && held > 0 && inFlight === 0 ? true : undefined;
      },
      { timeoutMs: 90_000, progress: () => ({ received: sink.received.length, ...sink.connections() }) },
    );
    process.kill(-(first.child.pid as number), 'SIGKILL');
    await first.stop();
    nodes.delete(first);
    const atKill = sink.received.length;
    const states = await database.db
      .selectFrom('distribution_recipients')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('distribution_id', '=', id)
      .groupBy('state')
      .execute();
    const count = (state: string) => Number(states.find((s) => s.state === state)?.n ?? 0);
    // Mid-distribution: some sent, some in flight (marked sending), the rest not begun.
    expect(count('sent')).toBe(atKill);
    expect(count('sent')).toBeLessThan(CONTACTS);
    expect(count('sending')).toBeGreaterThan(0);
    sink.release();

    await startWorker();
    await pollUntil(
      'the distribution finished by the new worker',
      async () => {
        const res = await t.call(org.apiToken, 'GET', `/API/v3/distributions/${id}`);
        return res.body.result.requestStatus === 'Done' ? res.body.result : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 200, progress: () => sink.received.length },
    );
    expect(sink.received).toHaveLength(CONTACTS);
    const perAddress = new Map<string, number>();
    for (const mail of sink.received)
      for (const to of mail.to) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
    expect(perAddress.size).toBe(CONTACTS);
    expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(sink.received.map((m) => m.messageId)).size).toBe(CONTACTS);
    const read = await t.call(org.apiToken, 'GET', `/API/v3/distributions/${id}`);
    expect(read.body.result.stats).toMatchObject({ sent: CONTACTS, failed: 0, bounced: 0 });
  });
});
