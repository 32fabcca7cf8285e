/**
 * One side of the import benchmark, in a process of its own so its peak memory is its own. It runs the
 * built JavaScript (dist/), as `npm start` does: a TypeScript loader alone would add about 100 MB.
 *   generate <csv> <rows>           writes the CSV file
 *   baseline <csv> <dataDir> <rows> inserts the rows the CSV describes: 1,000 a statement (the import's
 *                                   own multi-row insert), a transaction each, nothing else
 *   fieldwork <csv> <dataDir> <rows> serves the API, has an `upload` child post the CSV to it, and waits
 *                                   for the import job
 *   upload <csv> <url> <token>      posts the CSV as a multipart upload (fetch, FormData, openAsBlob)
 * Prints one JSON line of figures.
 *
 * The upload runs in a process of its own so that the server's peak is the server's alone: in one process,
 * the client's fetch left about 80 MB of ArrayBuffers for the old heap's next full collection, which came
 * during the job, on top of the job's own first rise (issue 20: 364 MB together, 263 MB for the server
 * alone, 209 MB for the client alone).
 */
import { execFile } from 'node:child_process';
import { createWriteStream, openAsBlob } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { systemClock } from '../dist/clock.js';
import { readConfig } from '../dist/config.js';
import { createDatabase, migrateToLatest } from '../dist/db/database.js';
import { applyHeapGrowth } from '../dist/heap-growth.js';
import { insertMany } from '../dist/modules/contacts/bulk-insert.js';
import { CONTACT_COLUMNS } from '../dist/modules/contacts/contacts.store.js';
import { bootstrapOrganization } from '../dist/modules/organizations/bootstrap.service.js';
import { CSV_HEADER, contactRow, csvLine } from './contacts-fixture.mjs';

const [mode, csvPath, dataDir, rowsText] = process.argv.slice(2);
const rows = Number(mode === 'generate' ? dataDir : rowsText);
const BATCH = 1000;

async function generate() {
  const out = createWriteStream(csvPath);
  const write = (text) =>
    out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve));
  await write(`${CSV_HEADER}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `${csvLine(i)}\n`;
    if (chunk.length > 1 << 16) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return {};
}

async function baseline() {
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const started = performance.now();
  for (let start = 0; start < rows; start += BATCH) {
    const at = new Date().toISOString();
    const values = Array.from({ length: Math.min(BATCH, rows - start) }, (_, k) => {
      const row = contactRow(start + k, org.brandId, org.directoryId, at);
      return CONTACT_COLUMNS.map((column) => row[column]);
    });
    await database.db.transaction().execute((trx) => insertMany(trx, 'contacts', CONTACT_COLUMNS, values));
  }
  const ms = performance.now() - started;
  await database.close();
  return { ms };
}

async function fieldwork() {
  const config = readConfig({ data: dataDir, port: '0' }, {});
  // As `fieldwork serve` does (src/main.ts): the heap's growth is set before the application loads.
  applyHeapGrowth(config.heapGrowthPercent);
  const { buildApp } = await import('../dist/app.js');
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const app = await buildApp({ config, database, clock: systemClock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.workers.start();
  const base = `http://127.0.0.1:${app.server.address().port}/API/v3`;
  const headers = { 'x-api-token': org.apiToken };
  const list = await fetch(`${base}/mailinglists`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  }).then((res) => res.json());
  const listId = list.result.id;

  const started = performance.now();
  const url = `${base}/mailinglists/${listId}/contactimports`;
  const upload = await childFigures('upload', csvPath, url, org.apiToken);
  const accepted = performance.now();
  let result;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const res = await fetch(`${url}/${upload.importId}`, { headers });
    result = (await res.json()).result;
    if (result.status !== 'inProgress') break;
  }
  const finished = performance.now();
  if (result.status !== 'complete') throw new Error(JSON.stringify(result));
  await app.close();
  await database.close();
  return {
    ms: finished - started,
    uploadAndCheckMs: accepted - started,
    jobMs: finished - accepted,
    added: result.contacts.count.added,
    failed: result.contacts.count.failed,
    uploadMaxRssMb: upload.maxRssMb,
    uploadCpuMs: upload.cpuMs,
  };
}

/** Runs another mode of this file in a process of its own; answers its figures. */
async function childFigures(...args) {
  const file = fileURLToPath(import.meta.url);
  const { stdout } = await promisify(execFile)(process.execPath, [file, ...args], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** The client's side of the import: the CSV as a multipart upload, streamed from the file. */
async function upload() {
  // This mode's arguments after the CSV are the import URL and the API token (see the header).
  const [, , url, token] = process.argv.slice(2);
  const form = new FormData();
  form.append('file', await openAsBlob(csvPath, { type: 'text/csv' }), 'contacts.csv');
  const posted = await fetch(url, { method: 'POST', headers: { 'x-api-token': token }, body: form });
  const body = await posted.json();
  if (posted.status !== 200) throw new Error(JSON.stringify(body));
  return { importId: body.result.id };
}

const run = { generate, baseline, fieldwork, upload }[mode];
const figures = await run();
// maxRSS is in kilobytes: the peak of this process alone. CPU time (user + system) says how much of the
// time was this process's own work on a machine that other work shares.
const usage = process.resourceUsage();
const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
process.stdout.write(`${JSON.stringify({ ...figures, cpuMs, maxRssMb: usage.maxRSS / 1024 })}\n`);
