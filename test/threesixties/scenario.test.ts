import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverDecrypt, receiverHmac } from '../events/event-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  activate,
  addSubject,
  api,
  createProgram,
  nominate,
  pathOf,
  takeEvaluation,
  threeSixtyWorld,
  type World,
} from './threesixty-helpers.js';

/**
 * One 360 from creation to a ready report, through the API, the e-mailed links and the survey pages; a
 * subscriber of `threesixty.*` (signed, AES-256 encrypted) gets each of the seven topics with exactly
 * the attributes of spec part 6, in causal order for the subject.
 */
const KEY = '0123456789abcdef0123456789abcdef';

/** Spec 6's attributes per topic (BrandID is added to every message; COMPAT.md). */
const ATTRIBUTES: Record<string, string[]> = {
  'threesixty.created': ['ThreeSixtyID', 'SurveyID', 'Workflow'],
  'threesixty.statusChanged': ['ThreeSixtyID', 'Status'],
  'threesixty.nominationCreated': [
    'ThreeSixtyID',
    'SubjectID',
    'EvaluatorID',
    'EvaluatorEmail',
    'Relationship',
    'EvaluationURL',
  ],
  'threesixty.nominationRemoved': ['ThreeSixtyID', 'SubjectID', 'EvaluatorID', 'Relationship'],
  'threesixty.evaluationStatusChanged:Started': [
    'ThreeSixtyID',
    'SubjectID',
    'EvaluatorID',
    'Status',
    'SessionID',
    'Relationship',
  ],
  'threesixty.evaluationStatusChanged:Finished': [
    'ThreeSixtyID',
    'SubjectID',
    'EvaluatorID',
    'Status',
    'SessionID',
    'ResponseID',
    'Relationship',
    'Unsolicitied',
  ],
  'threesixty.person.statusChanged': ['ThreeSixtyID', 'SubjectID', 'Status'],
  'threesixty.reportReady': ['ThreeSixtyID', 'SubjectID', 'ReportURL'],
};

interface Message {
  topic: string;
  msg: Record<string, unknown>;
}

let w: World;
let receiver: WebhookReceiver;
let programId: string;
let subjectId: string;
const evaluators: { id: string; relationship: string; url: string; score: number }[] = [];
let messages: Message[] = [];

beforeAll(async () => {
  w = await threeSixtyWorld();
  receiver = await startWebhookReceiver();
  await api(w, 'POST', '/eventsubscriptions', {
    publicationUrl: receiver.url,
    topics: 'threesixty.*',
    encrypt: true,
    sharedKey: KEY,
  });
});
afterAll(async () => {
  await w.close();
  await receiver.close();
});

const step = () => w.clock.advance(1000);

describe('a 360 from creation to a ready report', () => {
  it('creates the 360 (inactive) and activates it', async () => {
    programId = await createProgram(w, {
      relationships: [
        { name: 'Self', min: 1, max: 1 },
        { name: 'Manager', min: 1, max: 1 },
        { name: 'Peer', min: 2, max: 3 },
      ],
      anonymityThreshold: 2,
    });
    expect((await api(w, 'GET', `/threesixties/${programId}`)).status).toBe('Inactive');
    step();
    await activate(w, programId);
    const got = await api(w, 'GET', `/threesixties/${programId}`);
    expect(got).toMatchObject({ id: programId, status: 'Active', surveyId: w.surveyId });
    expect(got.workflow).toMatchObject({
      anonymityThreshold: 2,
      allowUnsolicited: false,
      subjectsNominate: false,
    });
  });

  it('adds a subject and nominates four evaluators, each invited by e-mail over SMTP', async () => {
    step();
    subjectId = (await addSubject(w, programId)).id;
    const plan = [
      ['Self', 'Ada', 4],
      ['Manager', 'Charles', 2],
      ['Peer', 'Mary', 5],
      ['Peer', 'John', 3],
    ] as const;
    for (const [relationship, name, score] of plan) {
      step();
      const made = await nominate(w, programId, subjectId, relationship, name);
      expect(made.id).toMatch(/^TSE_[A-Za-z0-9]{15}$/);
      evaluators.push({ id: made.id, relationship, url: made.evaluationUrl, score });
    }
    expect(await w.runMailJobs()).toBe(4);
    expect(w.sink.received).toHaveLength(4);
    const toCharles = w.sink.received.find((m) => m.to.includes('charles@example.org'));
    const mail = await w.sink.parse(toCharles as (typeof w.sink.received)[number]);
    expect(mail.subject).toBe('Feedback for Ada Lovelace');
    expect(mail.text).toContain('Leadership 360 asks for your feedback on Ada Lovelace.');
    // The link in the invitation is the nomination's EvaluationURL.
    expect(mail.html).toContain(`href="${evaluators[1]?.url}"`);
    const list = await api(w, 'GET', `/threesixties/${programId}/subjects/${subjectId}/nominations`);
    expect(list.elements.map((n: { status: string }) => n.status)).toEqual(Array(4).fill('Nominated'));
  });

  it('runs each evaluation in the survey engine with the subject piped in; the last one makes the subject Done', async () => {
    for (const [i, evaluator] of evaluators.entries()) {
      step();
      const { page, end } = await takeEvaluation(w, evaluator.url, evaluator.score);
      expect(page).toContain('How clearly does Ada Lovelace explain?');
      expect(page).toContain('Does Ada listen?');
      expect(end).toContain('Your response has been recorded');
      const subject = await api(w, 'GET', `/threesixties/${programId}/subjects/${subjectId}`);
      expect(subject.status).toBe(i === evaluators.length - 1 ? 'Done' : 'Waiting');
    }
    const list = await api(w, 'GET', `/threesixties/${programId}/subjects/${subjectId}/nominations`);
    for (const n of list.elements) {
      expect(n).toMatchObject({ status: 'Finished', unsolicited: false });
      expect(n.responseId).toMatch(/^R_/);
      // The response is the survey's, with the subject and relationship as embedded data.
      const response = await api(w, 'GET', `/surveys/${w.surveyId}/responses/${n.responseId}`);
      expect(response.values).toMatchObject({ SubjectName: 'Ada Lovelace', Relationship: n.relationship });
    }
  });

  it('delivers each of the seven topics, signed and encrypted, with exactly the attributes of spec 6', async () => {
    // The removal of a nomination is the seventh topic: a fifth evaluator, nominated and removed.
    step();
    const extra = await nominate(w, programId, subjectId, 'Peer', 'Grace');
    step();
    await api(w, 'DELETE', `/threesixties/${programId}/subjects/${subjectId}/nominations/${extra.id}`);
    await w.deliveries.deliverDue();
    // created, statusChanged, 5 nominationCreated, 4 Started, 4 Finished, Done, reportReady, nominationRemoved.
    await receiver.waitFor(18);
    expect(receiver.received).toHaveLength(18);
    messages = receiver.received.map((r) => {
      const sent = r.form.get('MSG') ?? '';
      expect(r.form.get('HMAC')).toBe(receiverHmac(sent, KEY));
      const topic = (r.form.get('Topic') ?? '').replace(`${w.org.brandId}.`, '');
      return { topic, msg: JSON.parse(receiverDecrypt(sent, KEY)) };
    });
    expect(new Set(messages.map((m) => m.topic))).toEqual(
      new Set(Object.keys(ATTRIBUTES).map((k) => k.replace(/:.*/, ''))),
    );
    for (const { topic, msg } of messages) {
      const kind = topic === 'threesixty.evaluationStatusChanged' ? `${topic}:${msg.Status}` : topic;
      expect(Object.keys(msg).sort(), kind).toEqual([...(ATTRIBUTES[kind] ?? []), 'BrandID'].sort());
      expect(msg.BrandID).toBe(w.org.brandId);
      expect(msg.ThreeSixtyID).toBe(programId);
    }
  });

  it('carries the values the changes set', () => {
    const of = (topic: string) => messages.filter((m) => m.topic === topic).map((m) => m.msg);
    expect(of('threesixty.created')[0]).toMatchObject({
      SurveyID: w.surveyId,
      Workflow: { anonymityThreshold: 2 },
    });
    expect(of('threesixty.statusChanged')).toEqual([
      { ThreeSixtyID: programId, Status: 'Active', BrandID: w.org.brandId },
    ]);
    const created = of('threesixty.nominationCreated');
    expect(created.slice(0, 4)).toEqual(
      evaluators.map((e) => ({
        ThreeSixtyID: programId,
        SubjectID: subjectId,
        EvaluatorID: e.id,
        EvaluatorEmail: expect.stringMatching(/@example\.org$/),
        Relationship: e.relationship,
        EvaluationURL: e.url,
        BrandID: w.org.brandId,
      })),
    );
    const finished = of('threesixty.evaluationStatusChanged').filter((m) => m.Status === 'Finished');
    expect(finished.map((m) => m.Unsolicitied)).toEqual([false, false, false, false]);
    expect(
      finished.every((m) => String(m.ResponseID).startsWith('R_') && String(m.SessionID).startsWith('FS_')),
    ).toBe(true);
    expect(of('threesixty.person.statusChanged').map((m) => m.Status)).toEqual(['Done']);
    expect(of('threesixty.nominationRemoved')).toHaveLength(1);
  });

  it('arrives in causal order for the subject', () => {
    const at = (topic: string, match: (m: Record<string, unknown>) => boolean = () => true) =>
      messages.findIndex((m) => m.topic === topic && match(m.msg));
    const created = at('threesixty.created');
    const active = at('threesixty.statusChanged');
    expect(created).toBe(0);
    expect(active).toBeGreaterThan(created);
    let lastFinished = -1;
    for (const e of evaluators) {
      const mine = (m: Record<string, unknown>) => m.EvaluatorID === e.id;
      const nominated = at('threesixty.nominationCreated', mine);
      const started = at('threesixty.evaluationStatusChanged', (m) => mine(m) && m.Status === 'Started');
      const finished = at('threesixty.evaluationStatusChanged', (m) => mine(m) && m.Status === 'Finished');
      expect(nominated).toBeGreaterThan(active);
      expect(started).toBeGreaterThan(nominated);
      expect(finished).toBeGreaterThan(started);
      lastFinished = Math.max(lastFinished, finished);
    }
    const done = at('threesixty.person.statusChanged');
    const ready = at('threesixty.reportReady');
    expect(done).toBe(lastFinished + 1);
    expect(ready).toBe(done + 1);
    expect(at('threesixty.nominationRemoved')).toBeGreaterThan(
      at('threesixty.nominationCreated', (m) => m.EvaluatorEmail === 'grace@example.org'),
    );
  });

  it('serves the report at its ReportURL and through the API, the anonymity threshold applied', async () => {
    const ready = messages.find((m) => m.topic === 'threesixty.reportReady')?.msg;
    const page = await w.t.app.inject({ method: 'GET', url: pathOf(String(ready?.ReportURL)) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('360 report: Ada Lovelace');
    const report = await api(w, 'GET', `/threesixties/${programId}/subjects/${subjectId}/report`);
    expect(report).toMatchObject({ status: 'Done', ready: true, anonymityThreshold: 2 });
    // One manager is below the threshold of 2: merged into Others, which is still below it, so not shown.
    expect(report.groups).toEqual([
      { name: 'Self', relationships: ['Self'], evaluations: 1, shown: true },
      { name: 'Peer', relationships: ['Peer'], evaluations: 2, shown: true },
      { name: 'Others', relationships: ['Manager'], evaluations: 1, shown: false },
    ]);
    const q1 = report.questions.find((q: { key: string }) => q.key === 'QID1');
    expect(q1).toMatchObject({
      self: 4,
      others: 4,
      groups: { Self: { mean: 4 }, Peer: { mean: 4, count: 2 }, Others: { mean: null, count: 1 } },
    });
    expect(report.competencies.map((c: { name: string }) => c.name)).toEqual(['Communication', 'Leadership']);
    expect(page.body).not.toContain('Manager:');
  });
});
