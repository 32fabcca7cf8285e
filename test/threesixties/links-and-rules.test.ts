import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../engine/form-client.js';
import { receiverDecrypt } from '../events/event-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  activate,
  addSubject,
  answerAll,
  api,
  createProgram,
  nominate,
  pathOf,
  threeSixtyWorld,
  type World,
} from './threesixty-helpers.js';

/**
 * The rules around the links: a removed nomination's link stops opening, an inactive program's links show
 * a closed page (and its invitations wait for activation), unsolicited evaluations through a subject's
 * open link carry `Unsolicitied: true` and count only when the workflow says so.
 */
const KEY = '0123456789abcdef';
let w: World;
let receiver: WebhookReceiver;

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

/** Every event delivered so far, decrypted. */
async function delivered(): Promise<{ topic: string; msg: Record<string, unknown> }[]> {
  // Events of one change fall due a millisecond apart (docs/threesixties.md): let them all be due.
  w.clock.advance(1000);
  await w.deliveries.deliverDue();
  return receiver.received.map((r) => ({
    topic: (r.form.get('Topic') ?? '').replace(`${w.org.brandId}.`, ''),
    msg: JSON.parse(receiverDecrypt(r.form.get('MSG') ?? '', KEY)),
  }));
}

const open = (link: string) => w.t.app.inject({ method: 'GET', url: pathOf(link) });

describe('evaluation links', () => {
  it('hold invitations while the program is inactive, show a closed page, and open once it is active', async () => {
    const id = await createProgram(w, { relationships: [{ name: 'Peer', min: 1, max: 2 }] });
    const subject = await addSubject(w, id, 'Alan', 'Turing');
    const { evaluationUrl } = await nominate(w, id, subject.id, 'Peer', 'Joan');
    expect(await w.runMailJobs()).toBe(0);
    const closed = await open(evaluationUrl);
    expect(closed.statusCode).toBe(403);
    expect(closed.body).toContain('This evaluation is closed');
    await activate(w, id);
    const sent = w.sink.received.length;
    expect(await w.runMailJobs()).toBe(1);
    expect(w.sink.received.length).toBe(sent + 1);
    expect(w.sink.received.at(-1)?.to).toEqual(['joan@example.org']);
    const opened = await open(evaluationUrl);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/jfe/form/${w.surveyId}`);
    expect(String(opened.headers['set-cookie'])).toContain(`fw_${w.surveyId}=FS_`);
    await api(w, 'PUT', `/threesixties/${id}`, { status: 'Inactive' });
    expect((await open(evaluationUrl)).statusCode).toBe(403);
  });

  it('stop opening once the nomination is removed, before or after it was started', async () => {
    const id = await createProgram(w, { relationships: [{ name: 'Peer', min: 1, max: 3 }] });
    await activate(w, id);
    const subject = await addSubject(w, id, 'Grace', 'Hopper');
    const unopened = await nominate(w, id, subject.id, 'Peer', 'Kathleen');
    const started = await nominate(w, id, subject.id, 'Peer', 'Margaret');
    const client = new FormClient(w.t);
    expect((await client.get(pathOf(started.evaluationUrl))).status).toBe(200);
    const base = `/threesixties/${id}/subjects/${subject.id}/nominations`;
    for (const n of [unopened, started]) {
      w.clock.advance(1000);
      await api(w, 'DELETE', `${base}/${n.id}`);
    }
    for (const n of [unopened, started]) {
      const res = await open(n.evaluationUrl);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This link is not valid');
    }
    const again = await w.t.call(w.token, 'DELETE', `/API/v3${base}/${started.id}`);
    expect(again.status).toBe(404);
    expect(again.body.meta.error.errorCode).toBe('FW_360_3');
    const removed = (await delivered()).filter((e) => e.topic === 'threesixty.nominationRemoved');
    expect(removed.map((e) => e.msg.EvaluatorID)).toEqual([unopened.id, started.id]);
    expect(removed[0]?.msg).toEqual({
      ThreeSixtyID: id,
      SubjectID: subject.id,
      EvaluatorID: unopened.id,
      Relationship: 'Peer',
      BrandID: w.org.brandId,
    });
  });

  it('refuse a token that is not one', async () => {
    for (const path of [
      '/jfe/360/evaluate/l/short',
      `/jfe/360/evaluate/l/${'A'.repeat(40)}`,
      `/jfe/360/report/l/${'b'.repeat(40)}`,
    ])
      expect((await w.t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
  });
});

describe('unsolicited evaluations through a subject open link', () => {
  let id: string;
  let subject: { id: string; openEvaluationUrl: string };

  it('are refused while the workflow does not take them', async () => {
    const closedId = await createProgram(w, { relationships: [{ name: 'Peer', min: 1, max: 2 }] });
    await activate(w, closedId);
    const closedSubject = await addSubject(w, closedId, 'Edsger', 'Dijkstra');
    expect((await open(closedSubject.openEvaluationUrl)).statusCode).toBe(403);
  });

  it('carry Unsolicitied: true and do not count while the workflow says they do not', async () => {
    id = await createProgram(w, {
      relationships: [{ name: 'Peer', min: 1, max: 2 }],
      allowUnsolicited: true,
      anonymityThreshold: 1,
    });
    await activate(w, id);
    subject = await addSubject(w, id, 'Barbara', 'Liskov');
    const form = await open(subject.openEvaluationUrl);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Feedback on Barbara Liskov');
    // The form posts, and the browser is handed over to the survey with its session cookie.
    const client = new FormClient(w.t);
    const fields = { firstName: 'Ken', lastName: 'Thompson', email: 'ken@example.org', relationship: 'Peer' };
    const page = await client.post(pathOf(subject.openEvaluationUrl), '', fields);
    expect(page.body).toContain('How clearly does Barbara Liskov explain?');
    await answerAll(w, client, page.body, 5);
    const list = await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}/nominations`);
    expect(list.elements).toMatchObject([
      { email: 'ken@example.org', unsolicited: true, status: 'Finished' },
    ]);
    expect((await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}`)).status).toBe('Waiting');
    const report = await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}/report`);
    expect(report.groups).toEqual([]);
    const finished = (await delivered()).filter(
      (e) =>
        e.topic === 'threesixty.evaluationStatusChanged' &&
        e.msg.SubjectID === subject.id &&
        e.msg.Status === 'Finished',
    );
    expect(finished).toHaveLength(1);
    expect(finished[0]?.msg).toMatchObject({
      Unsolicitied: true,
      Relationship: 'Peer',
      ResponseID: expect.stringMatching(/^R_/),
    });
  });

  it('count once the workflow says so: the subject becomes Done and its report shows them', async () => {
    const workflow = (await api(w, 'GET', `/threesixties/${id}`)).workflow;
    await api(w, 'PUT', `/threesixties/${id}`, { workflow: { ...workflow, countUnsolicited: true } });
    expect((await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}`)).status).toBe('Done');
    const report = await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}/report`);
    expect(report.groups).toEqual([{ name: 'Peer', relationships: ['Peer'], evaluations: 1, shown: true }]);
    expect(report.questions[0]).toMatchObject({ key: 'QID1', groups: { Peer: { mean: 5, count: 1 } } });
    const events = (await delivered()).filter((e) => e.msg.SubjectID === subject.id).map((e) => e.topic);
    expect(events.slice(-2)).toEqual(['threesixty.person.statusChanged', 'threesixty.reportReady']);
  });

  it('send an address that was nominated to its own invitation', async () => {
    await nominate(w, id, subject.id, 'Peer', 'Dennis');
    const res = await w.t.app.inject({
      method: 'POST',
      url: pathOf(subject.openEvaluationUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'firstName=D&lastName=R&email=dennis%40example.org&relationship=Peer',
    });
    expect(res.statusCode).toBe(409);
    const bad = await w.t.app.inject({
      method: 'POST',
      url: pathOf(subject.openEvaluationUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'firstName=D&lastName=R&email=x%40example.org&relationship=Self',
    });
    expect(bad.statusCode).toBe(422);
  });
});
