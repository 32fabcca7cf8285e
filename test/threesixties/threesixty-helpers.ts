// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { expect } from 'vitest';
import { type Clock, manualClock } from '../../src/clock.js';
import { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { SmtpSender } from '../../src/modules/distributions/mail-sender.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { threeSixtyMailJob } from '../../src/modules/threesixties/mail.job.js';
import { THREESIXTY_MAIL_JOB } from '../../src/modules/threesixties/mails.js';
import { type SmtpSink, startSmtpSink } from '../distributions/smtp-sink.js';
import { importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { block, blockFlow, qsf, question } from '../engine/qsf-builder.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';

const FIVE = ['1', '2', '3', '4', '5'];

/**
 * The evaluation survey: two blocks (the default competencies), the subject's name piped into the
 * questions as embedded data. QID1 and QID2 single answers (recodes 1–5), QID3 a matrix of two rows.
 */
export const EVALUATION_SURVEY = JSON.stringify(
  qsf({
    blocks: [block('BL_comm', ['QID1', 'QID2'], undefined), block('BL_lead', ['QID3'])].map((b, i) => ({
      ...b,
      Description: i === 0 ? 'Communication' : 'Leadership',
    })),
    flow: [blockFlow('BL_comm', 'FL_2'), blockFlow('BL_lead', 'FL_3')],
    questions: [
      question('QID1', {
        type: 'MC',
        selector: 'SAVR',
        text: 'How clearly does ${e://Field/SubjectName} explain?',
        choices: FIVE,
      }),
      question('QID2', {
        type: 'MC',
        selector: 'SAVR',
        text: 'Does ${e://Field/SubjectFirstName} listen?',
        choices: FIVE,
      }),
      question('QID3', {
        type: 'Matrix',
        selector: 'Likert',
        sub: 'SingleAnswer',
        text: 'Rate ${e://Field/SubjectName} as a leader',
        choices: ['Decides', 'Delegates'],
        answers: FIVE,
      }),
    ],
  }),
);

/** One evaluation's answers, all the same score: QID1, QID2 and both rows of QID3. */
export const answersOf = (score: number) => {
  const s = String(score);
  return { QID1: s, QID2: s, QID3_1: s, QID3_2: s };
};

export interface Workflow {
  relationships: { name: string; min: number; max: number }[];
  subjectsNominate?: boolean;
  allowUnsolicited?: boolean;
  countUnsolicited?: boolean;
  anonymityThreshold?: number;
}

export interface World {
  t: TestApp;
  clock: Clock & { advance(ms: number): void };
  sink: SmtpSink;
  org: BootstrapResult;
  token: string;
  surveyId: string;
  /** Runs due mail jobs until none is left due (a job worker of the test's own, on the test clock). */
  runMailJobs(): Promise<number>;
  deliveries: DeliveryWorker;
  close(): Promise<void>;
}

/** A test app (manual clock) whose 360 mails go to a real SMTP server in this process, with the evaluation survey. */
export async function threeSixtyWorld(): Promise<World> {
  const sink = await startSmtpSink();
  const clock = manualClock('2026-05-04T09:00:00Z');
  const t = await buildTestApp({ clock, config: { smtpUrl: sink.url, allowPrivateTargets: true } });
  const org = await t.newOrganization();
  const surveyId = await importSurvey(t, org.apiToken, EVALUATION_SURVEY);
  const sender = new SmtpSender(sink.url, { maxConnections: 2, maxMessages: 100 });
  const config = testConfig({ allowPrivateTargets: true });
  const deps = { db: t.database.db, clock, config, blobs: t.app.blobs };
  const registry = new JobRegistry();
  registry.register(THREESIXTY_MAIL_JOB, threeSixtyMailJob(deps, sender));
  const jobs = new JobWorker({ db: t.database.db, clock, registry });
  // One delivery at a time to a receiver: deliveries arrive in the order they fell due.
  const deliveries = new DeliveryWorker(deps, { random: () => 0.5, receiverFloor: 1, receiverCeiling: 1 });
  return {
    t,
    clock,
    sink,
    org,
    token: org.apiToken,
    surveyId,
    runMailJobs: async () => {
      let ran = 0;
      for (let round = 0; round < 100; round++) {
        const n = await jobs.runOnce();
        if (n === 0) return ran;
        ran += n;
      }
      return ran;
    },
    deliveries,
    close: async () => {
      await deliveries.stop();
      sender.close();
      await t.close();
      await sink.close();
    },
  };
}

/** Calls the API and expects 200; answers `result`. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export async function api(w: World, method: string, url: string, body?: unknown): Promise<any> {
  const res = await w.t.call(w.token, method, `/API/v3${url}`, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.result;
}

export async function createProgram(w: World, workflow: Workflow, name = 'Leadership 360'): Promise<string> {
  return (await api(w, 'POST', '/threesixties', { name, surveyId: w.surveyId, workflow })).id;
}

export const activate = (w: World, id: string) => api(w, 'PUT', `/threesixties/${id}`, { status: 'Active' });

export async function addSubject(w: World, programId: string, firstName = 'Ada', lastName = 'Lovelace') {
  const email = `${firstName.toLowerCase()}@example.org`;
  return (await api(w, 'POST', `/threesixties/${programId}/subjects`, { firstName, lastName, email })) as {
    id: string;
    openEvaluationUrl: string;
  };
}

export async function nominate(
  w: World,
  programId: string,
  subjectId: string,
  relationship: string,
  name: string,
) {
  const body = {
    email: `${name.toLowerCase()}@example.org`,
    firstName: name,
    lastName: 'Example',
    relationship,
  };
  return (await api(w, 'POST', `/threesixties/${programId}/subjects/${subjectId}/nominations`, body)) as {
    id: string;
    evaluationUrl: string;
  };
}

/** The path of an absolute link (the test calls the app through inject). */
export const pathOf = (url: string) => new URL(url).pathname;

/**
 * Takes the evaluation behind a link as a browser would: opens it, lands on the survey's page, answers
 * every question of every page with `score`; answers the first page's HTML and the end page's.
 */
export async function takeEvaluation(w: World, link: string, score: number) {
  const client = new FormClient(w.t);
  const page = await client.get(pathOf(link));
  expect(page.status, page.body).toBe(200);
  return { page: page.body, end: await answerAll(w, client, page.body, score) };
}

/** Answers every page from `first` on with `score`, a while apart; answers the end page's HTML. */
export async function answerAll(w: World, client: FormClient, first: string, score: number): Promise<string> {
  let end = { status: 200, body: first };
  for (let pages = 0; pages < 5 && end.body.includes('name="_fw_page"'); pages++) {
    w.clock.advance(10_000); // a page takes a respondent a while
    end = await client.post(`/jfe/form/${w.surveyId}`, end.body, answersOf(score));
  }
  expect(end.status, end.body).toBe(200);
  expect(end.body).toContain('Your response has been recorded');
  return end.body;
}
