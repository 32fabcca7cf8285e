import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { blobDirectory } from '../../src/files/create-blob-store.js';
import { createDirectoryList } from '../contacts/contacts-helpers.js';
import { startExportWorker, waitForExport } from '../exports/exports-helpers.js';
import { buildTestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * Issue 19, defect 9: `fieldwork.db` and the job files were created world-readable (0644) although they
 * hold every organisation's data. Now files are 0600 and directories 0700, checked on a real data
 * directory. (The SQLite part runs on both projects: it needs no server.)
 */
const root = mkdtempSync(join(tmpdir(), 'fieldwork-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('files of the data directory', () => {
  it('makes the data directory 0700 and fieldwork.db with its -wal and -shm 0600', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const database = createDatabase({ dataDir });
    try {
      await migrateToLatest(database.db);
      const file = join(dataDir, 'fieldwork.db');
      expect(existsSync(`${file}-wal`)).toBe(true);
      expect(existsSync(`${file}-shm`)).toBe(true);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe(0o600);
    } finally {
      await database.close();
    }
  });

  it('tightens a database that an earlier version left readable by all', async () => {
    const dataDir = mkdtempSync(join(root, 'old-'));
    const file = join(dataDir, 'fieldwork.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const database = createDatabase({ dataDir });
    try {
      await migrateToLatest(database.db);
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
    } finally {
      await database.close();
    }
  });

  it('writes an export 0600 in a 0700 blob directory', async () => {
    const dataDir = mkdtempSync(join(root, 'jobs-'));
    const t = await buildTestApp({ config: { dataDir } });
    const worker = startExportWorker(t);
    try {
      const org = await t.newOrganization();
      const surveyId = await importSmallSurvey(t, org.apiToken);
      const base = `/API/v3/surveys/${surveyId}/export-responses`;
      const started = await t.call(org.apiToken, 'POST', base, { format: 'csv' });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const id = started.body.result.progressId as string;
      const { last } = await waitForExport(t, org.apiToken, `${base}/${id}`);
      expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
      const job = await t.database.db
        .selectFrom('jobs')
        .select('payload')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      // The export lives in the BlobStore: `<dataDir>/blobs/<orgId>/exports/<id>.zip`.
      const key = JSON.parse(job.payload).file as string;
      expect(key).toBe(`${org.brandId}/exports/${id}.zip`);
      for (const dir of ['', org.brandId, `${org.brandId}/exports`])
        expect(modeOf(join(blobDirectory(dataDir), dir)), dir).toBe(0o700);
      expect(modeOf(join(blobDirectory(dataDir), key))).toBe(0o600);
    } finally {
      await worker.stop();
      await t.close();
    }
  });

  it('keeps contact import uploads (a CSV body and a JSON body) 0600 until their job reads them', async () => {
    const dataDir = mkdtempSync(join(root, 'uploads-'));
    const t = await buildTestApp({ config: { dataDir } });
    try {
      const org = await t.newOrganization();
      const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
      const base = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contactimports`;
      const csv = await t.call(org.apiToken, 'POST', base, 'firstName,email\nAda,ada@example.com\n', {
        'content-type': 'text/csv',
      });
      const json = await t.call(org.apiToken, 'POST', base, [{ firstName: 'Bo', email: 'bo@example.com' }]);
      for (const res of [csv, json]) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const job = await t.database.db
          .selectFrom('jobs')
          .select('payload')
          .where('id', '=', res.body.result.id)
          .executeTakeFirstOrThrow();
        const key = JSON.parse(job.payload).file as string;
        expect(key.startsWith(`${org.brandId}/uploads/`)).toBe(true);
        expect(modeOf(join(blobDirectory(dataDir), key))).toBe(0o600);
      }
    } finally {
      await t.close();
    }
  });
});
