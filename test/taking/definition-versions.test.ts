import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseOptions, type Db, migrateToLatest } from '../../src/db/database.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { engineFixture, importSurvey } from '../engine/engine-helpers.js';
import { ROOT } from '../helpers/cli.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from '../helpers/postgres.js';
import { buildTestApp, TEST_ENGINE, type TestApp, uniqueBrandId } from '../helpers/test-app.js';

/**
 * Issue 20 (decision 0012): a node compiles a survey once per version and keeps it, and the version moves
 * with every change of the definition or the name. Instance A (this process) changes the survey while
 * instance B (another process, its own caches, the same database) has it compiled: B's next page is of
 * the new version, with nothing told to B.
 */

let storage: { options: DatabaseOptions; drop(): Promise<void> };
let database: Db;
let a: TestApp;
let b: { child: ChildProcessWithoutNullStreams; url: string };
let org: BootstrapResult;

/** A database both processes can open: a SQLite file in a fresh directory, or a fresh PostgreSQL schema. */
async function sharedStorage(): Promise<typeof storage> {
  if (TEST_ENGINE === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-versions-'));
    return { options: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = `t_${uniqueBrandId()}`;
  await withPgClient((client) => client.query(`create schema ${schema}`));
  return {
    options: { dataDir: ':memory:', databaseUrl: TEST_DATABASE_URL, pgSchema: schema },
    drop: () => dropSchema(schema),
  };
}

function startInstanceB(options: DatabaseOptions): Promise<typeof b> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/taking/app-instance.child.ts', JSON.stringify(options)],
    { cwd: ROOT },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('close', (code) => reject(new Error(`instance B exited with ${code}:\n${output}`)));
  });
}

/** A browser on instance B: keeps its cookie and follows the redirect after each page. */
function respondentOn(url: string) {
  let cookie = '';
  const read = async (response: Response) => {
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0] ?? '';
    if (response.status !== 303) return { status: response.status, body: await response.text() };
    const next = await fetch(`${url}${response.headers.get('location')}`, { headers: { cookie } });
    return { status: next.status, body: await next.text() };
  };
  return {
    open: async (path: string) => read(await fetch(`${url}${path}`, { redirect: 'manual' })),
    post: async (path: string, page: string, fields: Record<string, string>) => {
      const form = new URLSearchParams(fields);
      for (const name of ['_fw_session', '_fw_page'])
        form.set(name, new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '');
      return read(
        await fetch(`${url}${path}`, { method: 'POST', body: form, headers: { cookie }, redirect: 'manual' }),
      );
    },
  };
}

const titleOf = (page: string) => /<title>([^<]*)<\/title>/.exec(page)?.[1];
const versionOf = async (surveyId: string) =>
  (
    await database.db
      .selectFrom('surveys')
      .select('version')
      .where('id', '=', surveyId)
      .executeTakeFirstOrThrow()
  ).version;

beforeAll(async () => {
  storage = await sharedStorage();
  database = createDatabase(storage.options);
  await migrateToLatest(database.db);
  a = await buildTestApp({ database });
  org = await a.newOrganization();
  b = await startInstanceB(storage.options);
}, 120_000);

afterAll(async () => {
  const exited = new Promise((resolve) => b?.child.on('close', resolve));
  b?.child.stdin.end();
  await exited;
  await a?.close();
  await storage?.drop();
});

describe('a survey changed on one instance is taken at its new version on another', () => {
  it('renaming moves the version; the next page on the other process shows the new name', async () => {
    const surveyId = await importSurvey(a, org.apiToken, engineFixture('pets.qsf'));
    const version = await versionOf(surveyId);
    const path = `/jfe/form/${surveyId}`;
    const respondent = respondentOn(b.url);

    const first = await respondent.open(path);
    expect(first.status).toBe(200);
    expect(titleOf(first.body)).toBe('Pets and fruit');

    const put = await a.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, { name: 'Pets, renamed' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(await versionOf(surveyId)).toBe(version + 1);

    const second = await respondent.post(path, first.body, { QID1: '1' });
    expect(second.status).toBe(200);
    expect(titleOf(second.body)).toBe('Pets, renamed');
    // A new respondent on B, and the API on A, see the same.
    expect(titleOf((await respondentOn(b.url).open(path)).body)).toBe('Pets, renamed');
    expect((await a.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).body.result.name).toBe(
      'Pets, renamed',
    );
  });

  it('what does not change the definition or the name leaves the version, and still shows at once', async () => {
    const surveyId = await importSurvey(a, org.apiToken, engineFixture('pets.qsf'));
    const version = await versionOf(surveyId);
    const path = `/jfe/form/${surveyId}`;
    expect((await respondentOn(b.url).open(path)).status).toBe(200);

    const put = await a.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: false });
    expect(put.status).toBe(200);
    expect(await versionOf(surveyId)).toBe(version);
    // Activation is read on every request, not kept with the compiled survey.
    expect((await respondentOn(b.url).open(path)).status).toBe(403);
  });
});
