// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { expect } from 'vitest';
import { type Clock, manualClock } from '../../src/clock.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { DISTRIBUTION_JOB, distributionJob } from '../../src/modules/distributions/distribution.job.js';
import { SmtpSender } from '../../src/modules/distributions/mail-sender.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { addListContact, createDirectoryList } from '../contacts/contacts-helpers.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { block, blockFlow, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { type RecipientRule, type SmtpSink, startSmtpSink } from './smtp-sink.js';

/** A survey of one text question on one page: an individual link is taken in two requests. */
export const ONE_QUESTION = JSON.stringify(
  qsf({
    blocks: [block('BL_a', ['QID1'])],
    flow: [blockFlow('BL_a', 'FL_2')],
    questions: [question('QID1', { type: 'TE', selector: 'SL', text: 'Anything to add?' })],
  }),
);

export const MESSAGE =
  '<p>Dear ${m://FirstName} ${m://LastName},</p><p>Please tell us: ${l://SurveyLink?d=Take%20the%20survey}</p>' +
  '<p>Not for you? ${l://OptOutLink?d=Unsubscribe}</p>';

export interface Contact {
  id: string;
  firstName: string;
  email: string;
}

export interface World {
  t: TestApp;
  clock: Clock & { advance(ms: number): void };
  sink: SmtpSink;
  org: BootstrapResult;
  surveyId: string;
  listId: string;
  contacts: Contact[];
  /** Runs due distribution jobs until none is left due (a job worker of the test's own, on the test clock). */
  runJobs(): Promise<number>;
  close(): Promise<void>;
}

/** A test app (manual clock) whose distributions send to a real SMTP server in this process, a survey and a list. */
export async function distributionWorld(
  options: { contacts?: number; unsubscribed?: number[]; rule?: RecipientRule } = {},
): Promise<World> {
  const sink = await startSmtpSink(options.rule);
  const clock = manualClock('2026-04-01T09:00:00Z');
  const t = await buildTestApp({ clock, config: { smtpUrl: sink.url, allowPrivateTargets: true } });
  const org = await t.newOrganization();
  const surveyId = await importSurvey(t, org.apiToken, ONE_QUESTION);
  const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
  const contacts: Contact[] = [];
  for (let i = 0; i < (options.contacts ?? 0); i++) {
    const firstName = `Person${i}`;
    const email = `person${i}@example.com`;
    const unsubscribed = options.unsubscribed?.includes(i) ?? false;
    const added = await addListContact(t, org.apiToken, org.directoryId, listId, {
      firstName,
      lastName: `Surname${i}`,
      email,
      ...(unsubscribed ? { unsubscribed: true } : {}),
    });
    contacts.push({ id: added.id, firstName, email });
  }
  const sender = new SmtpSender(sink.url, { maxConnections: 3, maxMessages: 100 });
  const registry = new JobRegistry();
  const deps = { db: t.database.db, clock, config: testConfig(), blobs: t.app.blobs };
  registry.register(DISTRIBUTION_JOB, distributionJob(deps, sender));
  const worker = new JobWorker({ db: t.database.db, clock, registry });
  return {
    t,
    clock,
    sink,
    org,
    surveyId,
    listId,
    contacts,
    runJobs: async () => {
      let ran = 0;
      for (let round = 0; round < 100; round++) {
        const n = await worker.runOnce();
        if (n === 0) return ran;
        ran += n;
      }
      return ran;
    },
    close: async () => {
      sender.close();
      await t.close();
      await sink.close();
    },
  };
}

export function distributionBody(world: World, overrides: Record<string, unknown> = {}) {
  return {
    message: { messageText: MESSAGE },
    recipients: { mailingListId: world.listId },
    header: {
      fromEmail: 'surveys@example.org',
      fromName: 'Survey Team',
      replyToEmail: 'replies@example.org',
      subject: 'A question for ${m://FirstName}',
    },
    surveyLink: { surveyId: world.surveyId, type: 'Individual' },
    sendDate: world.clock.now().toISOString(),
    ...overrides,
  };
}

export async function createDistribution(
  world: World,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await world.t.call(
    world.org.apiToken,
    'POST',
    '/API/v3/distributions',
    distributionBody(world, overrides),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result.id).toMatch(/^EMD_[A-Za-z0-9]{15}$/);
  return res.body.result.id;
}

export async function getDistribution(world: World, id: string) {
  const res = await world.t.call(world.org.apiToken, 'GET', `/API/v3/distributions/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

/** Every element of a paged list (following nextPage). */
export async function allPages(world: World, url: string) {
  const elements: Record<string, unknown>[] = [];
  let next: string | null = url;
  for (let i = 0; next && i < 100; i++) {
    const res = await world.t.call(world.org.apiToken, 'GET', next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    elements.push(...res.body.result.elements);
    next =
      res.body.result.nextPage &&
      new URL(res.body.result.nextPage).pathname + new URL(res.body.result.nextPage).search;
  }
  return elements;
}

/** The href of the first link whose text is `text` in a message's HTML. */
export function hrefOf(html: string, text: string): string {
  const match = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(html);
  if (!match?.[1]) throw new Error(`no link "${text}" in ${html}`);
  return match[1].replaceAll('&amp;', '&');
}

/** Path and query of an absolute URL (the test app is reached through inject). */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};
