import fc, { type Arbitrary } from 'fast-check';
import { SMALL_QSF } from '../surveys/survey-helpers.js';
import { hints } from './hints.js';
import { Ref } from './json-text.js';
import type { MultipartBody, Part } from './multipart.js';
import { applyMutation, type Mutation, mutationsFor } from './mutations.js';
import type { JsonSchema, Operation } from './operations.js';
import { type Body, describePlan, type Plan } from './plan.js';
import { arbitraryFor } from './schema-arbitrary.js';

/**
 * Requests for one operation: valid ones (seeded ids, bodies from its schema) and, more often, a valid one
 * with one to three hostile changes (mutations.ts).
 */
export function planArbitrary(op: Operation): Arbitrary<Plan> {
  const valid = validPlan(op);
  const hostile = fc
    .tuple(valid, mutationsFor(op))
    .map(([plan, mutations]) =>
      mutations.reduce<Plan>((p, m: Mutation) => applyMutation(p, m), { ...plan, variant: 'hostile' }),
    );
  return fc
    .oneof({ weight: 1, arbitrary: valid }, { weight: 3, arbitrary: hostile })
    .map((plan) => Object.assign(plan, { [fc.toStringMethod]: () => describePlan(plan) }));
}

function validPlan(op: Operation): Arbitrary<Plan> {
  const path = fc.record(
    Object.fromEntries(
      op.pathParams.map((name) => [
        name,
        fc.nat({ max: 3 }).map((pick) => ({ from: 'seeded' as const, pick })),
      ]),
    ),
  );
  return fc.record({ path, query: validQuery(op), body: validBody(op) }).map(({ path, query, body }) => ({
    variant: 'valid' as const,
    path,
    query,
    rawQuery: '',
    auth: 'admin' as const,
    body,
    mutations: [],
  }));
}

function validQuery(op: Operation): Arbitrary<Plan['query']> {
  const entries = op.query.map((param) => {
    const value = (hints(param.name) ?? arbitraryFor(param.schema)) as Arbitrary<Plan['query'][number][1]>;
    const entry = value.map((v) => [param.name, v] as Plan['query'][number]);
    return param.required
      ? entry.map((e) => [e])
      : fc.option(entry, { nil: undefined }).map((e) => (e ? [e] : []));
  });
  return fc.tuple(...entries).map((lists) => lists.flat());
}

function validBody(op: Operation): Arbitrary<Body> {
  const choices: Arbitrary<Body>[] = [];
  const json = op.bodies['application/json'];
  if (json) choices.push(jsonBody(json));
  if (op.bodies['multipart/form-data']) choices.push(fc.constant(validMultipart(op)));
  if (op.bodies['text/csv'])
    choices.push(fc.constant({ kind: 'bytes', bytes: CONTACTS_CSV, contentType: 'text/csv' } as const));
  return choices.length === 0 ? fc.constant({ kind: 'none' }) : fc.oneof(...choices);
}

function jsonBody(schema: JsonSchema): Arbitrary<Body> {
  return arbitraryFor(schema, hints).map((value) => ({
    kind: 'json' as const,
    value,
    contentType: 'application/json',
  }));
}

const CONTACTS_CSV = 'firstName,lastName,email\nAda,Lovelace,ada@example.com\nGrace,Hopper,\n';

/** The upload each multipart call takes: a QSF, a contact file, or the seeded survey's csv export. */
function validMultipart(op: Operation): MultipartBody {
  const parts: Part[] = [];
  if (op.path.endsWith('/surveys')) {
    parts.push({ name: 'name', content: 'Uploaded survey' });
    parts.push({
      name: 'file',
      filename: 'survey.qsf',
      contentType: 'application/octet-stream',
      content: SMALL_QSF,
    });
  } else if (op.path.includes('contactimports')) {
    parts.push({ name: 'file', filename: 'contacts.csv', contentType: 'text/csv', content: CONTACTS_CSV });
  } else {
    if (!op.path.includes('{surveyId}')) parts.push({ name: 'surveyId', content: new Ref('survey') });
    parts.push({ name: 'format', content: 'csv' });
    parts.push({
      name: 'file',
      filename: 'responses.csv',
      contentType: 'text/csv',
      content: new Ref('exportCsv'),
    });
  }
  return { kind: 'multipart', parts, framing: 'ok' };
}
