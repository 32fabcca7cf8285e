/**
 * What the survey-taking and response benchmarks share: a database on either engine (a throwaway schema
 * on PostgreSQL), Fieldwork serving it with a serving node's logger, the bare "render + insert" app that
 * answers the same browser protocol, and the load generator run in a process of its own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, type Db, type Engine, migrateToLatest } from '../src/db/database.js';
import type { App } from '../src/http/app-types.js';
import { newId } from '../src/http/ids.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { ResponseRow } from '../src/modules/responses/responses.store.js';
import { loggerOptions } from '../src/server.js';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** `BENCH_ENGINES=sqlite` (or `postgres`) runs one engine only. */
export const ENGINES: Engine[] = (process.env.BENCH_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .filter((e): e is Engine => e === 'sqlite' || e === 'postgres');

export interface BenchDatabase {
  database: Db;
  drop(): Promise<void>;
}

/**
 * SQLite in a fresh data directory, as a serving node keeps it (a file in WAL mode; removed afterwards),
 * or a fresh schema of the machine's PostgreSQL (dropped afterwards). Not SQLite in memory: when an insert
 * splits a b-tree page, SQLite swaps page numbers through a temporary one (the pending-byte page, 262145),
 * and the commit after it then walks the whole page cache; in memory the cache is the whole database (83k
 * pages, 131,072 hash slots here, about 1.2 ms a commit, growing with the database), a cost no deployment
 * has. On a file the cache is SQLite's 16 MB (4,096 slots).
 */
export async function openBenchDatabase(engine: Engine): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const dataDir = await mkdtemp(join(tmpdir(), 'fieldwork-bench-'));
    const database = createDatabase({ dataDir });
    await migrateToLatest(database.db);
    return { database, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = createDatabase({ dataDir: ':memory:', databaseUrl: PG_URL });
  await admin.db.schema.createSchema(schema).execute();
  const database = createDatabase({ dataDir: ':memory:', databaseUrl: PG_URL, pgSchema: schema });
  await migrateToLatest(database.db);
  return {
    database,
    drop: async () => {
      await admin.db.schema.dropSchema(schema).cascade().execute();
      await admin.close();
    },
  };
}

export interface Fieldwork {
  app: App;
  origin: string;
  headers: Record<string, string>;
}

/**
 * Fieldwork on the database, logging as a serving node does (to /dev/null), on a loopback port. Its files
 * (uploads, exports) go to a directory of its own, removed when the app closes.
 */
export async function startFieldwork(database: Db): Promise<Fieldwork> {
  const org = await bootstrapOrganization(database.db, systemClock.now(), {
    brandId: `bench${randomBytes(4).toString('hex')}`,
  });
  const files = await mkdtemp(join(tmpdir(), 'fieldwork-bench-files-'));
  const config = readConfig({ data: files, rateLimit: '0' }, {});
  const logger = loggerOptions(config, '/dev/null');
  const app = await buildApp({ config: { ...config, rateLimit: 0 }, database, clock: systemClock, logger });
  app.addHook('onClose', () => rm(files, { recursive: true, force: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, origin, headers: { 'x-api-token': org.apiToken, 'content-type': 'application/json' } };
}

/**
 * Imports a QSF file, activates it and subscribes to its completions (so each one writes its delivery row),
 * through any node serving the API; `publicationUrl` is where a running worker would deliver them.
 */
export async function createActiveSurvey(
  fw: Pick<Fieldwork, 'origin' | 'headers'>,
  qsf: string,
  publicationUrl = 'https://receiver.example/hook',
): Promise<string> {
  const api = `${fw.origin}/API/v3`;
  const created = await fetch(`${api}/surveys`, {
    method: 'POST',
    headers: fw.headers,
    body: JSON.stringify({ file: qsf }),
  });
  if (created.status !== 200) throw new Error(`survey import: ${created.status} ${await created.text()}`);
  const surveyId = ((await created.json()) as { result: { id: string } }).result.id;
  await fetch(`${api}/surveys/${surveyId}`, {
    method: 'PUT',
    headers: fw.headers,
    body: '{"isActive":true}',
  });
  await fetch(`${api}/eventsubscriptions`, {
    method: 'POST',
    headers: fw.headers,
    body: JSON.stringify({
      topics: `surveyengine.completedResponse.${surveyId}`,
      publicationUrl,
    }),
  });
  return surveyId;
}

/**
 * The same survey with a bigger definition: questions in a block the flow never shows (as a QSF's trash
 * block holds them), each with a long text, until the file is about `bytes` long.
 */
export function paddedQsf(qsf: string, bytes: number): string {
  const doc = JSON.parse(qsf) as { SurveyElements: { Element: string; Payload: unknown }[] };
  const blocks = doc.SurveyElements.find((e) => e.Element === 'BL')?.Payload as object[];
  const unused = {
    Type: 'Trash',
    Description: 'Trash / Unused Questions',
    ID: 'BL_unused00000001',
    BlockElements: [] as object[],
  };
  blocks.push(unused);
  for (let n = 100; JSON.stringify(doc).length < bytes; n++) {
    const id = `QID${n}`;
    unused.BlockElements.push({ Type: 'Question', QuestionID: id });
    doc.SurveyElements.push({
      Element: 'SQ',
      Payload: {
        QuestionID: id,
        DataExportTag: `Q${n}`,
        QuestionText: `How often did you think about question ${n} last week? `.repeat(6),
        QuestionType: 'MC',
        Selector: 'SAVR',
        Choices: Object.fromEntries(
          ['Never', 'Rarely', 'Sometimes', 'Often', 'Always'].map((d, i) => [String(i + 1), { Display: d }]),
        ),
        ChoiceOrder: ['1', '2', '3', '4', '5'],
        Validation: { Settings: { ForceResponse: 'OFF', Type: 'None' } },
      },
    });
  }
  return JSON.stringify(doc);
}

/**
 * The pets survey of the engine tests (a forced matrix and a requested essay among its three pages): the
 * answers a respondent posts page by page, and the end page's text.
 */
export const PETS = {
  qsf: readFileSync(new URL('../test/fixtures/engine/pets.qsf', import.meta.url), 'utf8'),
  pages: [
    { QID1: '1' },
    { QID2_TEXT: 'Rex', QID3: '1' },
    { QID4_1: '1', QID4_2: '2', _fw_action: 'continue' },
  ] as Record<string, string>[],
  endText: 'Thank you for telling us about your pets.',
};

/** A respondent's way through the survey: answers per page (the load generator adds the hidden fields). */
export interface RespondentsSpec {
  origin: string;
  surveyId: string;
  respondents: number;
  warmUpS: number;
  durationS: number;
  pages: Record<string, string>[];
  /** Text of the end page: a response that does not reach it is an error. */
  endText: string;
}

export interface RespondentsResult {
  completedPerS: number;
  /** Warm-up included: what the server's CPU time is divided by. */
  completedInAll: number;
  /** CPU time of this process (the server under test, and SQLite in it) per completed response. */
  serverCpuMs?: number;
  requestsPerS: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The last page's post, which records the response (a transaction of its own): p50 and p99. */
  recordingP50Ms: number;
  recordingP99Ms: number;
  /** Every other request (the link, the other pages' posts, the redirected gets): p99. */
  othersP99Ms: number;
  errors: number;
  firstError?: string;
}

/** A load generator under way: its process id (for its CPU time), a way to stop it, and its figures. */
export interface RespondentsRun {
  pid: number;
  stop(): void;
  result: Promise<RespondentsResult>;
}

/** Starts the load generator (respondents.child.ts) in its own process; `result` settles when it ends. */
export function startRespondents(spec: RespondentsSpec): RespondentsRun {
  const child = fileURLToPath(new URL('./respondents.child.ts', import.meta.url));
  const proc = spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const result = new Promise<RespondentsResult>((resolve, reject) =>
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator ended with ${code}`));
      try {
        resolve(JSON.parse(out) as RespondentsResult);
      } catch (error) {
        reject(error);
      }
    }),
  );
  const stop = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
  };
  return { pid: proc.pid ?? 0, stop, result };
}

/** Runs the load generator in its own process and returns its figures, with this process's CPU time. */
export async function runRespondents(spec: RespondentsSpec): Promise<RespondentsResult> {
  const run = startRespondents(spec);
  const cpu = process.cpuUsage();
  const result = await run.result;
  const used = process.cpuUsage(cpu);
  return { ...result, serverCpuMs: (used.user + used.system) / 1000 / Math.max(1, result.completedInAll) };
}

/** A page as a browser gets it, captured from Fieldwork; the bare app sends it with its own session. */
export interface CapturedPages {
  pages: string[];
  end: string;
  sessionId: string;
}

/** Walks the survey once as a browser and keeps its pages' HTML (for the bare app to send). */
export async function capturePages(fw: Fieldwork, surveyId: string, answers: Record<string, string>[]) {
  const path = `${fw.origin}/jfe/form/${surveyId}`;
  let response = await fetch(path, { redirect: 'manual' });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const pages = [await response.text()];
  const sessionId = /name="_fw_session" value="([^"]*)"/.exec(pages[0] ?? '')?.[1] ?? '';
  for (const fields of answers) {
    const form = new URLSearchParams(fields);
    form.set('_fw_session', sessionId);
    form.set('_fw_page', /name="_fw_page" value="([^"]*)"/.exec(pages.at(-1) ?? '')?.[1] ?? '');
    response = await fetch(path, { method: 'POST', body: form, headers: { cookie }, redirect: 'manual' });
    if (response.status === 303) response = await fetch(path, { headers: { cookie }, redirect: 'manual' });
    pages.push(await response.text());
  }
  const end = pages.pop() ?? '';
  return { pages, end, sessionId } satisfies CapturedPages;
}

/**
 * The bare baseline: a Fastify app without Fieldwork that answers the same protocol (open the link, post a
 * page, 303 to the link, the next page, the end page after the last) with pages of the same HTML, and
 * inserts one response row (a copy of a recorded one) per request, through Kysely on the same database.
 */
export async function startBare(database: Db, captured: CapturedPages, row: ResponseRow) {
  const app: FastifyInstance = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const sessions = new Map<string, number>();
  let seq = 1_000_000_000;
  const insert = () =>
    database.db
      .insertInto('responses')
      .values({ ...row, id: newId('R'), seq: seq++, session_id: null })
      .execute();
  const page = (session: string, index: number) =>
    index < captured.pages.length
      ? (captured.pages[index] ?? '').replaceAll(captured.sessionId, session)
      : captured.end;
  const cookieOf = (header: string | undefined) => /bare=(FS_[A-Za-z0-9]+)/.exec(header ?? '')?.[1];
  app.get<{ Params: { id: string } }>('/jfe/form/:id', async (request, reply) => {
    let session = cookieOf(request.headers.cookie);
    if (!session) {
      session = newId('FS');
      sessions.set(session, 0);
      reply.header('set-cookie', `bare=${session}; Path=/jfe/form/${request.params.id}; HttpOnly`);
    }
    await insert();
    return reply.type('text/html; charset=utf-8').send(page(session, sessions.get(session) ?? 0));
  });
  app.post<{ Params: { id: string } }>('/jfe/form/:id', async (request, reply) => {
    const session = cookieOf(request.headers.cookie) ?? '';
    const next = (sessions.get(session) ?? 0) + 1;
    sessions.set(session, next);
    await insert();
    if (next >= captured.pages.length) {
      sessions.delete(session);
      return reply.type('text/html; charset=utf-8').send(captured.end);
    }
    return reply.code(303).header('location', `/jfe/form/${request.params.id}`).send();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}
