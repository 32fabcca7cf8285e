import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLog } from '../../src/http/request-log.js';
import { createIndividualLink } from '../../src/modules/engine/sessions.service.js';
import { loggerOptions } from '../../src/server.js';
import { engineFixture, importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 19, defect 9: an individual link's token (`/jfe/form/{SurveyID}/l/{token}`) is a respondent's
 * whole credential and the database keeps only its hash; the request log wrote it in clear. The app runs
 * here with the serving node's own logger options, writing to a file.
 */
let t: TestApp;
let dir: string;
let logFile: string;
let logger: ReturnType<typeof loggerOptions>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-log-'));
  logFile = join(dir, 'server.log');
  logger = loggerOptions({ logLevel: 'info' }, logFile);
  t = await buildTestApp({ logger });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the log file holds once the buffered lines are written. */
function logLines(): string[] {
  logger.stream.flushSync();
  return readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
}

describe('the request log', () => {
  it('never writes an individual link token, for a link that works, a bad one, or a secret query', async () => {
    const org = await t.newOrganization();
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const link = await createIndividualLink(
      t.database.db,
      { organizationId: org.brandId },
      {
        surveyId,
        contactId: 'CID_logsecrets00001',
        now: t.clock.now(),
      },
    );
    const opened = await new FormClient(t).get(link.path);
    expect(opened.status).toBe(200);
    const unknown = 'Zz9'.repeat(13);
    expect((await new FormClient(t).get(`/jfe/form/${surveyId}/l/${unknown}`)).status).toBe(404);
    expect((await new FormClient(t).get(`/jfe/form/${surveyId}?access_token=${unknown}x`)).status).toBe(200);

    // A request's line is written once its response has gone (onResponse), which can be after inject
    // answers: the lines of the three requests are waited for, then the whole log is searched.
    const urls = () => logLines().map((line) => JSON.parse(line).url as string | undefined);
    await expect.poll(urls, { timeout: 5_000 }).toContain(`/jfe/form/${surveyId}/l/[redacted]`);
    await expect.poll(urls, { timeout: 5_000 }).toContain(`/jfe/form/${surveyId}?access_token=[redacted]`);
    const text = logLines().join('\n');
    expect(text).not.toContain(link.token);
    expect(text).not.toContain(unknown);
  });

  it("redacts the URL in Fastify's own lines too: the default error handler's req and route-not-found", async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
      logController: new RequestLog(),
    });
    app.get('/jfe/form/:surveyId/l/:token', async () => {
      throw new Error('a page that crashed');
    });
    try {
      const token = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f';
      expect((await app.inject({ url: `/jfe/form/SV_abc/l/${token}` })).statusCode).toBe(500);
      expect((await app.inject({ url: `/nowhere/l/${token}` })).statusCode).toBe(404);
      const parsed = lines.map((line) => JSON.parse(line));
      expect(lines.join('')).not.toContain(token);
      expect(parsed.find((line) => line.msg === 'a page that crashed')?.req.url).toBe(
        '/jfe/form/SV_abc/l/[redacted]',
      );
      expect(parsed.map((line) => line.msg)).toContain('Route GET:/nowhere/l/[redacted] not found');
    } finally {
      await app.close();
    }
  });
});
