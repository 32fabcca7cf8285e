/**
 * Issue 3: one page of 10,000 contacts from a 100,000-contact list (spec 4.3, SQLite), through the whole
 * API over loopback, against a bare Fastify route that runs the same SQL query (the same store function)
 * and sends the rows with JSON.stringify. Goal: Fieldwork's time at most 1.5x the baseline's.
 */
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { newId } from '../src/http/ids.js';
import { listMembers } from '../src/modules/contacts/members.store.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import { contactRow } from './contacts-fixture.mjs';
import type { BenchResult } from './run.js';

const CONTACTS = 100_000;
const PAGE = 10_000;
const OFFSET = 50_000;
const ROUNDS = 30;

async function timeGet(url: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return { ms: performance.now() - started, bytes: body.length };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export default async function bench(): Promise<BenchResult> {
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const db = database.db;
  const org = await bootstrapOrganization(db, systemClock.now(), { brandId: 'bench', targetAudience: true });
  const scope = { organizationId: org.brandId };
  const listId = newId('CG');
  const at = new Date().toISOString();
  await db
    .insertInto('mailing_lists')
    .values({
      id: listId,
      organization_id: org.brandId,
      directory_id: org.directoryId,
      name: 'Bench',
      owner_id: org.userId,
      category: null,
      folder: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (let start = 0; start < CONTACTS; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, k) =>
      contactRow(start + k, org.brandId, org.directoryId, at),
    );
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('contacts').values(rows).execute();
      await trx
        .insertInto('mailing_list_members')
        .values(
          rows.map((row) => ({
            organization_id: org.brandId,
            mailing_list_id: listId,
            contact_id: row.id,
            contact_lookup_id: newId('CGC'),
            unsubscribed: 0,
            added_at: at,
          })),
        )
        .execute();
    });
  }

  const app = await buildApp({
    config: readConfig({ data: ':memory:', rateLimit: '0' }, {}),
    database,
    clock: systemClock,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const bare = Fastify();
  bare.get('/page', async (_request, reply) => {
    const rows = await listMembers(db, scope, listId, 'all', { offset: OFFSET, limit: PAGE });
    return reply.type('application/json; charset=utf-8').send(JSON.stringify({ result: { elements: rows } }));
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/page`;
  const ourUrl = `${appUrl}/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contacts?pageSize=${PAGE}&offset=${OFFSET}`;
  const headers = { 'x-api-token': org.apiToken };

  try {
    for (let i = 0; i < 5; i++) {
      await timeGet(bareUrl, {});
      await timeGet(ourUrl, headers);
    }
    const baseline: number[] = [];
    const ours: number[] = [];
    let sizes = { ours: 0, baseline: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const b = await timeGet(bareUrl, {});
      const o = await timeGet(ourUrl, headers);
      baseline.push(b.ms);
      ours.push(o.ms);
      sizes = { ours: o.bytes, baseline: b.bytes };
    }
    const ratio = median(ours) / median(baseline);
    return {
      name: `GET .../mailinglists/{id}/contacts, page of ${PAGE} at offset ${OFFSET} of ${CONTACTS} (SQLite)`,
      lines: [
        `${ROUNDS} rounds, alternating; median times`,
        `baseline (same query + JSON.stringify, bare Fastify): ${median(baseline).toFixed(1)} ms, ${sizes.baseline} bytes`,
        `fieldwork (auth, paging, presenter, schema serialiser): ${median(ours).toFixed(1)} ms, ${sizes.ours} bytes`,
        `ratio fieldwork/baseline: ${ratio.toFixed(2)} (goal <= 1.5)`,
      ],
    };
  } finally {
    await app.close();
    await bare.close();
    await database.close();
  }
}
