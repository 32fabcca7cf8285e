import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../engine/form-client.js';
import {
  activate,
  addSubject,
  api,
  createProgram,
  nominate,
  pathOf,
  threeSixtyWorld,
  type World,
} from './threesixty-helpers.js';

/** The 360 API's shapes, refusals and cascades, and the page where subjects nominate their evaluators. */
let w: World;
beforeAll(async () => {
  w = await threeSixtyWorld();
});
afterAll(() => w.close());

const PEERS = { relationships: [{ name: 'Peer', min: 1, max: 2 }] };

async function refused(
  method: string,
  url: string,
  body: unknown,
  status: number,
  code: string,
  text?: string,
) {
  const res = await w.t.call(w.token, method, `/API/v3${url}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.meta.error.errorCode).toBe(code);
  if (text) expect(res.body.meta.error.errorMessage).toContain(text);
}

describe('360 programs', () => {
  it('answers the record with its workflow spelled out, and lists the organisation programs', async () => {
    const id = await createProgram(w, PEERS, 'Listed');
    expect(id).toMatch(/^TS_[A-Za-z0-9]{15}$/);
    const got = await api(w, 'GET', `/threesixties/${id}`);
    expect(got).toEqual({
      id,
      name: 'Listed',
      surveyId: w.surveyId,
      ownerId: w.org.userId,
      status: 'Inactive',
      workflow: {
        relationships: [{ name: 'Peer', min: 1, max: 2 }],
        subjectsNominate: false,
        allowUnsolicited: false,
        countUnsolicited: false,
        anonymityThreshold: 3,
        competencies: [],
      },
      fromEmail: 'no-reply@localhost',
      fromName: null,
      creationDate: expect.any(String),
      lastModifiedDate: expect.any(String),
    });
    await createProgram(w, PEERS, 'Second');
    const page = await api(w, 'GET', '/threesixties?pageSize=1');
    expect(page.elements).toHaveLength(1);
    expect(page.nextPage).toContain('offset=1');
  });

  it('refuses a workflow that cannot work, naming the field', async () => {
    const body = (workflow: unknown, surveyId = w.surveyId) => ({ name: 'Bad', surveyId, workflow });
    await refused('POST', '/threesixties', body(PEERS, 'SV_000000000000000'), 404, 'GSI_2');
    const rel = (name: string, min: number, max: number) => ({ relationships: [{ name, min, max }] });
    await refused('POST', '/threesixties', body(rel('Peer', 3, 2)), 400, 'FW_VAL_1', 'relationships[0].min');
    await refused('POST', '/threesixties', body(rel('Self', 1, 2)), 400, 'FW_VAL_1', 'relationships[0].max');
    await refused('POST', '/threesixties', body(rel('Friend', 1, 2)), 400, 'FW_VAL_1', 'name');
    const twice = {
      relationships: [
        { name: 'Peer', min: 1, max: 2 },
        { name: 'Peer', min: 0, max: 1 },
      ],
    };
    await refused('POST', '/threesixties', body(twice), 400, 'FW_VAL_1', 'relationships[1].name');
    const competencies = { ...PEERS, competencies: [{ name: 'Ghost', questionIds: ['QID99'] }] };
    await refused('POST', '/threesixties', body(competencies), 400, 'FW_VAL_1', 'QID99');
  });

  it('deletes a program with its subjects; its links stop opening', async () => {
    const id = await createProgram(w, PEERS);
    await activate(w, id);
    const subject = await addSubject(w, id, 'Hedy', 'Lamarr');
    const { evaluationUrl } = await nominate(w, id, subject.id, 'Peer', 'George');
    await api(w, 'DELETE', `/threesixties/${id}`);
    await refused('GET', `/threesixties/${id}`, undefined, 404, 'FW_360_1');
    expect((await w.t.app.inject({ method: 'GET', url: pathOf(evaluationUrl) })).statusCode).toBe(404);
  });
});

describe('subjects and nominations', () => {
  let id: string;
  let subjectId: string;
  beforeAll(async () => {
    id = await createProgram(w, {
      relationships: [{ name: 'Self', min: 1, max: 1 }, ...PEERS.relationships],
    });
    subjectId = (await addSubject(w, id, 'Katherine', 'Johnson')).id;
  });

  it('refuses a relationship outside the workflow, one past its maximum, and an address nominated twice', async () => {
    const url = `/threesixties/${id}/subjects/${subjectId}/nominations`;
    const person = (email: string, relationship: string) => ({
      email,
      firstName: 'A',
      lastName: 'B',
      relationship,
    });
    await refused('POST', url, person('m@example.org', 'Manager'), 400, 'FW_VAL_1', 'relationship');
    await nominate(w, id, subjectId, 'Peer', 'Dorothy');
    await nominate(w, id, subjectId, 'Peer', 'Mary');
    await refused('POST', url, person('x@example.org', 'Peer'), 409, 'FW_360_4');
    await refused('POST', url, person('DOROTHY@example.org', 'Self'), 409, 'FW_360_5');
    const list = await api(w, 'GET', url);
    expect(list.elements).toHaveLength(2);
    const dorothy = list.elements.find((n: { email: string }) => n.email === 'dorothy@example.org');
    expect(dorothy).toEqual({
      id: expect.stringMatching(/^TSE_/),
      subjectId,
      email: 'dorothy@example.org',
      firstName: 'Dorothy',
      lastName: 'Example',
      relationship: 'Peer',
      unsolicited: false,
      status: 'Nominated',
      sessionId: null,
      responseId: null,
      creationDate: expect.any(String),
      startDate: null,
      finishDate: null,
    });
  });

  it('answers 404 for a subject or nomination that is not there', async () => {
    await refused('GET', `/threesixties/${id}/subjects/TSP_000000000000000`, undefined, 404, 'FW_360_2');
    await refused(
      'GET',
      `/threesixties/${id}/subjects/TSP_000000000000000/report`,
      undefined,
      404,
      'FW_360_2',
    );
    const url = `/threesixties/${id}/subjects/${subjectId}/nominations/TSE_000000000000000`;
    await refused('DELETE', url, undefined, 404, 'FW_360_3');
  });

  it('deletes a subject with its nominations', async () => {
    const other = await addSubject(w, id, 'Annie', 'Easley');
    const { evaluationUrl } = await nominate(w, id, other.id, 'Peer', 'Christine');
    await api(w, 'DELETE', `/threesixties/${id}/subjects/${other.id}`);
    await refused('GET', `/threesixties/${id}/subjects/${other.id}`, undefined, 404, 'FW_360_2');
    expect((await w.t.app.inject({ method: 'GET', url: pathOf(evaluationUrl) })).statusCode).toBe(404);
    const subjects = await api(w, 'GET', `/threesixties/${id}/subjects`);
    expect(subjects.elements.map((s: { id: string }) => s.id)).toEqual([subjectId]);
  });
});

describe('subjects who nominate their own evaluators', () => {
  it('get the nomination page link by e-mail, and their nominations are invited like any other', async () => {
    const id = await createProgram(w, { ...PEERS, subjectsNominate: true });
    await activate(w, id);
    await w.runMailJobs(); // what earlier tests queued
    const before = w.sink.received.length;
    const subject = await addSubject(w, id, 'Frances', 'Allen');
    expect(await w.runMailJobs()).toBe(1);
    const mail = await w.sink.parse(w.sink.received[before] as (typeof w.sink.received)[number]);
    expect(mail.subject).toBe('Leadership 360: choose your evaluators');
    const link = /href="([^"]*\/jfe\/360\/nominate\/l\/[A-Za-z0-9]{40})"/.exec(String(mail.html))?.[1] ?? '';
    const client = new FormClient(w.t);
    const page = await client.get(pathOf(link));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Choose who gives you feedback');
    const fields = { firstName: 'Fran', lastName: 'Bilas', email: 'fran@example.org', relationship: 'Peer' };
    const made = await client.post(pathOf(link), '', fields);
    expect(made.status).toBe(200);
    expect(made.body).toContain('fran@example.org was nominated.');
    const twice = await client.post(pathOf(link), '', fields);
    expect(twice.status).toBe(422);
    const list = await api(w, 'GET', `/threesixties/${id}/subjects/${subject.id}/nominations`);
    expect(list.elements).toMatchObject([
      { email: 'fran@example.org', relationship: 'Peer', unsolicited: false },
    ]);
    expect(await w.runMailJobs()).toBe(1);
    expect(w.sink.received.at(-1)?.to).toEqual(['fran@example.org']);
  });
});
