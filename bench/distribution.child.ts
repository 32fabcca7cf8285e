// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
/**
 * One measured send for distribution.bench.ts, in a process of its own (so its peak RSS is its own):
 * `fieldwork N URL` sends a distribution of N contacts through the distribution job to the SMTP server at
 * URL; `bare N URL` sends the same messages, rendered beforehand, straight through nodemailer's pooled
 * transport with the same pool settings and the same number in flight. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { JobRegistry, JobWorker } from '../src/jobs/job-runner.js';
import { DISTRIBUTION_JOB, distributionJob } from '../src/modules/distributions/distribution.job.js';
import { composeMail } from '../src/modules/distributions/mail-message.js';
import { POOL_SETTINGS } from '../src/modules/distributions/mail-sender.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import { insertListContacts } from '../test/distributions/list-contacts-fixture.js';
import { block, blockFlow, qsf, question } from '../test/engine/qsf-builder.js';

const [mode, countText, smtpUrl] = process.argv.slice(2) as ['fieldwork' | 'bare', string, string];
const COUNT = Number(countText);
const MESSAGE =
  '<p>Dear ${m://FirstName} ${m://LastName},</p><p>Please tell us: ${l://SurveyLink?d=Take%20the%20survey}</p>' +
  '<p>Not for you? ${l://OptOutLink?d=Unsubscribe}</p>';
const QSF = JSON.stringify(
  qsf({
    blocks: [block('BL_a', ['QID1'])],
    flow: [blockFlow('BL_a', 'FL_2')],
    questions: [question('QID1', { type: 'TE', selector: 'SL' })],
  }),
);

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-distribution-bench-'));
const config = readConfig({ data: dir, port: '0', logLevel: 'silent' }, { SMTP_URL: smtpUrl });
const database = createDatabase({ dataDir: dir });
await migrateToLatest(database.db);
const app = await buildApp({ config, database, clock: systemClock, logger: { level: 'error' } });
const org = await bootstrapOrganization(database.db, new Date(), { brandId: 'bench', name: 'Bench' });
const call = async (
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await app.inject({
    method,
    url,
    headers: { 'x-api-token': org.apiToken, ...headers },
    ...(body === undefined ? {} : { payload: body as string }),
  });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.body}`);
  return res.json().result;
};
const boundary = 'benchboundary';
const surveyId = (
  await call(
    'POST',
    '/API/v3/surveys',
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.qsf"\r\n\r\n${QSF}\r\n--${boundary}--\r\n`,
    { 'content-type': `multipart/form-data; boundary=${boundary}` },
  )
).id as string;
const listId = (await call('POST', `/API/v3/directories/${org.directoryId}/mailinglists`, { name: 'Bench' }))
  .id as string;
await insertListContacts(
  database.db,
  { organizationId: org.brandId, directoryId: org.directoryId, listId },
  COUNT,
  'bench',
);

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 10);
const seconds = mode === 'fieldwork' ? await sendThroughFieldwork() : await sendBare();
clearInterval(sampler);
process.stdout.write(`${JSON.stringify({ mode, count: COUNT, seconds, peakRssMb: peakRss / 2 ** 20 })}\n`);
await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });

/** The distribution job, as a worker runs it: collect, then send every recipient. */
async function sendThroughFieldwork(): Promise<number> {
  await call('POST', '/API/v3/distributions', {
    message: { messageText: MESSAGE },
    recipients: { mailingListId: listId },
    header: { fromEmail: 'surveys@example.org', fromName: 'Survey Team', subject: 'Hello ${m://FirstName}' },
    surveyLink: { surveyId, type: 'Individual' },
    sendDate: new Date().toISOString(),
  });
  const registry = new JobRegistry();
  const handler = distributionJob({ db: database.db, clock: systemClock, config, blobs: app.blobs });
  registry.register(DISTRIBUTION_JOB, handler);
  const worker = new JobWorker({ db: database.db, clock: systemClock, registry });
  const started = performance.now();
  while ((await worker.runOnce()) > 0) {}
  const seconds = (performance.now() - started) / 1000;
  handler.close();
  return seconds;
}

/** The same messages, rendered before the clock starts, through nodemailer alone. */
async function sendBare(): Promise<number> {
  const messages = Array.from({ length: COUNT }, (_, i) => {
    const token = `T${String(i).padStart(31, '0')}`;
    const optOutUrl = `http://localhost:80/mail/optout/${token}`;
    const content = composeMail(
      { body: { en: MESSAGE }, subject: 'Hello ${m://FirstName}' },
      {
        firstName: `Person${i}`,
        lastName: 'Bench',
        email: `p${i}@example.com`,
        extRef: null,
        language: null,
        embeddedData: {},
      },
      {
        surveyUrl: `http://localhost:80/jfe/form/${surveyId}/l/${token}${token.slice(0, 8)}`,
        optOutUrl,
        openUrl: `http://localhost:80/mail/open/${token}`,
      },
    );
    return {
      messageId: `<EMD_bench.${i}@example.org>`,
      from: { name: 'Survey Team', address: 'surveys@example.org' },
      to: { name: `Person${i} Bench`, address: `p${i}@example.com` },
      subject: content.subject,
      html: content.html,
      text: content.text,
      headers: {
        'List-Unsubscribe': `<${optOutUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  });
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, ...POOL_SETTINGS });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < messages.length) await transport.sendMail(messages[next++] as SendMailOptions);
  };
  await Promise.all(Array.from({ length: POOL_SETTINGS.maxConnections * 2 }, lane));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return seconds;
}
