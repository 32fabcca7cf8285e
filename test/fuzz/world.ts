// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { randomInt } from 'node:crypto';
import type { Config } from '../../src/config.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { contactImportJob } from '../../src/modules/contacts/contact-import.job.js';
import { CONTACT_IMPORT_JOB } from '../../src/modules/contacts/contact-imports.service.js';
import { saveResponseFile } from '../../src/modules/engine/uploads.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import { responseImportJob } from '../../src/modules/responseimports/response-import.job.js';
import { RESPONSE_IMPORT_JOB } from '../../src/modules/responseimports/response-imports.service.js';
import { responseUpdateJob } from '../../src/modules/responses/update-responses.job.js';
import { RESPONSE_UPDATE_JOB } from '../../src/modules/responses/update-responses.service.js';
import { png } from '../graphics/images.js';
import { responseRow } from '../helpers/factories.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';
import { multipartBody, SMALL_QSF } from '../surveys/survey-helpers.js';
import type { IdKind } from './id-kinds.js';

/** An organisation with one of each resource, its administrator's and a participant's tokens. */
export interface World {
  brandId: string;
  adminToken: string;
  participantToken: string;
  ids: Record<IdKind, string[]>;
  /** A csv export of the seeded survey: a file that response imports take. */
  exportCsv: string;
}

type Ids = Partial<Record<IdKind, string[]>>;

/** Calls of one seeding: each must answer 200, and its `result` is what it answers. */
interface Seeding {
  t: TestApp;
  config: Config;
  admin: string;
  brandId: string;
  // biome-ignore lint/suspicious/noExplicitAny: seeding reads the fields of several result shapes
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
}

/** Seeds a new organisation through the API (valid calls only) and runs the jobs its calls started. */
export async function seedWorld(t: TestApp, config: Config): Promise<World> {
  const org = await t.newOrganization();
  const seeding: Seeding = {
    t,
    config,
    admin: org.apiToken,
    brandId: org.brandId,
    call: (method, url, body, headers) => resultOf(t.call(org.apiToken, method, url, body, headers), url),
  };
  const people = await seedPeople(seeding);
  const contacts = await seedContacts(seeding, org.directoryId);
  const survey = await seedSurvey(seeding);
  // A distribution of the survey to the directory list, due long after the fuzz test ends (nothing is sent).
  const distribution = await seeding.call('POST', '/API/v3/distributions', {
    message: { messageText: '<p>Hello ${m://FirstName}: ${l://SurveyLink?d=Take the survey}</p>' },
    recipients: { mailingListId: contacts.directoryList?.[0] },
    header: { fromEmail: `surveys@${org.brandId}.example`, fromName: 'Fuzz', subject: 'Fuzz survey' },
    surveyLink: { surveyId: survey.ids.survey?.[0], type: 'Individual' },
    sendDate: '2099-01-01T00:00:00Z',
  });
  const threeSixty = await seedThreeSixty(seeding, survey.ids.survey?.[0] ?? '');
  const [subscription] = people.ids.subscription ?? [];
  const deliveries = await seeding.call('GET', `/API/v3/eventsubscriptions/${subscription}/deliveries`);
  const ids = {
    organization: [org.brandId],
    directory: [org.directoryId],
    delivery: deliveries.elements.map((d: { id: string }) => d.id),
    ...people.ids,
    ...contacts,
    ...survey.ids,
    distribution: [distribution.id],
    ...threeSixty,
  } as Record<IdKind, string[]>;
  ids.user = [org.userId, ...(ids.user ?? [])];
  return {
    brandId: org.brandId,
    adminToken: org.apiToken,
    participantToken: people.participantToken,
    exportCsv: survey.exportCsv,
    ids,
  };
}

/** A participant with a token, a division, a group and an event subscription to every topic. */
async function seedPeople(s: Seeding): Promise<{ ids: Ids; participantToken: string }> {
  const user = await s.call('POST', '/API/v3/users', {
    username: `participant@${s.brandId}`,
    firstName: 'Fuzz',
    lastName: 'Participant',
    userType: 'UT_PARTICIPANT',
    email: `participant@${s.brandId}.example`,
  });
  const token = await s.call('POST', `/API/v3/users/${user.id}/apitoken`);
  const division = await s.call('POST', '/API/v3/divisions', { name: 'Fuzz division' });
  const group = await s.call('POST', '/API/v3/groups', { name: 'Fuzz group' });
  await s.call('POST', `/API/v3/groups/${group.id}/members`, { userId: user.id });
  // Every event makes a delivery row; no delivery worker runs in the fuzz test, so nothing is sent.
  const subscription = await s.call('POST', '/API/v3/eventsubscriptions', {
    publicationUrl: 'http://127.0.0.1:9/fuzz',
    topics: '*',
  });
  // A library message in the group's library (the participant reaches it too), and an image.
  const message = await s.call('POST', `/API/v3/libraries/${group.id}/messages`, {
    description: 'Fuzz message',
    category: 'invite',
    messages: { en: '<p>Hello ${m://FirstName}</p>' },
  });
  const image = multipartBody(png());
  const graphic = await s.call('POST', '/API/v3/graphics', image.body, { 'content-type': image.contentType });
  const oauthClient = await s.call('POST', '/API/v3/oauth-clients', {
    name: 'Fuzz client',
    scopes: ['manage:all'],
  });
  const ids = {
    user: [user.id],
    division: [division.id],
    group: [group.id],
    subscription: [subscription.id],
    library: [user.id, group.id],
    message: [message.id],
    graphic: [graphic.id],
    oauthClient: [oauthClient.clientId],
  };
  return { ids, participantToken: token.apiToken };
}

/** A directory contact, a directory list with a contact, a legacy list with a member and a sample, imports. */
async function seedContacts(s: Seeding, directoryId: string): Promise<Ids> {
  const dir = `/API/v3/directories/${directoryId}`;
  const contact = await s.call('POST', `${dir}/contacts`, {
    firstName: 'Ada',
    email: `ada@${s.brandId}.example`,
  });
  const list = await s.call('POST', `${dir}/mailinglists`, { name: 'Fuzz list' });
  const listContact = await s.call('POST', `${dir}/mailinglists/${list.id}/contacts`, { firstName: 'Grace' });
  const contactImport = await s.call('POST', `${dir}/mailinglists/${list.id}/contactimports`, [
    { firstName: 'Imported', email: `imported@${s.brandId}.example` },
  ]);
  const legacy = await s.call('POST', '/API/v3/mailinglists', { name: 'Fuzz legacy list' });
  const member = await s.call('POST', `/API/v3/mailinglists/${legacy.id}/contacts`, { firstName: 'Alan' });
  const legacyImport = await s.call('POST', `/API/v3/mailinglists/${legacy.id}/contactimports`, [
    { firstName: 'Joan' },
  ]);
  const sample = await s.call('POST', `/API/v3/mailinglists/${legacy.id}/samples`, { size: 1 });
  return {
    directoryContact: [contact.id, listContact.id],
    directoryList: [list.id],
    listContact: [listContact.id],
    contactImport: [contactImport.id],
    legacyList: [legacy.id],
    legacyMember: [member.id],
    legacyImport: [legacyImport.id],
    sample: [sample.id],
  };
}

/** The small QSF survey with a response, both kinds of export run to the end, and an import of the csv. */
async function seedSurvey(s: Seeding): Promise<{ ids: Ids; exportCsv: string }> {
  const qsf = multipartBody(SMALL_QSF);
  const survey = await s.call('POST', '/API/v3/surveys', qsf.body, { 'content-type': qsf.contentType });
  const values = { QID1: '30', QID1_3_TEXT: 'Cherry', QID2_1: 1, QID3_TEXT: 'First', QID5: 9 };
  const response = await s.call('POST', `/API/v3/surveys/${survey.id}/responses`, { values });
  const exports = `/API/v3/surveys/${survey.id}/export-responses`;
  const progress = await s.call('POST', exports, { format: 'csv', compress: false });
  const legacyExport = await s.call('POST', '/API/v3/responseexports', {
    surveyId: survey.id,
    format: 'csv',
  });
  await runJobs(s);
  const { fileId } = await s.call('GET', `${exports}/${progress.progressId}`);
  const file = await s.t.call(s.admin, 'GET', `${exports}/${fileId}/file`);
  if (file.status !== 200) throw new Error(`seeding: the export file answered ${file.status}`);
  const upload = multipartBody(file.raw.body, { format: 'csv' });
  const responseImport = await s.call('POST', `/API/v3/surveys/${survey.id}/import-responses`, upload.body, {
    'content-type': upload.contentType,
  });
  const responseUpdate = await s.call('POST', `/API/v3/surveys/${survey.id}/update-responses`, {
    updates: [{ responseId: response.responseId, embeddedData: { fuzz: 'seeded' } }],
  });
  await runJobs(s);
  const parts = await seedDefinitionParts(s, survey.id);
  // A session taken through the API (issue 15): the survey takes one only while active.
  await s.call('PUT', `/API/v3/surveys/${survey.id}`, { isActive: true });
  // Create answers 201, as the real service's does.
  const session = await s.t.call(s.admin, 'POST', `/API/v3/surveys/${survey.id}/sessions`, {
    language: 'EN',
  });
  if (session.status !== 201) throw new Error(`seeding: a survey session answered ${session.status}`);
  // The survey shared with a group of the organisation (issue 15 part 5): a collaboration's recipient.
  const group = await s.call('POST', '/API/v3/groups', { name: `Fuzz collaborators ${randomInt(1e9)}` });
  await s.call('POST', `/API/v3/surveys/${survey.id}/permissions/collaborations`, {
    recipientId: group.id,
    permissions: { result: { viewSurveyResults: true } },
  });
  const uploaded = await seedUploadedFile(s, survey.id);
  const ids = {
    ...parts,
    survey: [survey.id],
    response: [response.responseId, uploaded.responseId],
    legacyExport: [legacyExport.id],
    exportProgress: [progress.progressId],
    exportFile: [fileId],
    responseImport: [responseImport.id],
    responseUpdate: [responseUpdate.progressId],
    session: [session.body.result.sessionId],
    recipient: [group.id],
    uploadedFile: [uploaded.fileId],
  };
  return { ids, exportCsv: file.raw.body };
}

/**
 * A respondent's uploaded file (issue 14): the file in the BlobStore, as the pages' upload stores it, and
 * a response that names it. Written directly, as no API call takes a file (the pages' multipart upload is
 * browser-tested in test/engine/types-input.test.ts).
 */
async function seedUploadedFile(s: Seeding, surveyId: string) {
  const deps = { db: s.t.database.db, clock: s.t.clock, config: s.config, blobs: s.t.app.blobs };
  const sessionId = `FS_fuzz${randomInt(1e8, 1e9)}`;
  const place = { organizationId: s.brandId, sessionId };
  const file = await saveResponseFile(deps, place, [Buffer.from('a respondent file')], 1024);
  const responseId = `R_fuzz${randomInt(1e8, 1e9)}`;
  const at = new Date().toISOString();
  const values = { QID9_FILE_ID: file.id, QID9_FILE_NAME: 'fuzz.txt', QID9_FILE_SIZE: file.size };
  await s.t.database.db
    .insertInto('responses')
    .values(
      responseRow({ id: responseId, organizationId: s.brandId, surveyId, seq: 1_000_000, at }, values, {
        session_id: sessionId,
      }),
    )
    .execute();
  return { responseId, fileId: file.id };
}

/**
 * A block with a question, added through the survey-definitions calls (issue 15), and a published version.
 * Question and flow ids are names within a survey (QID<n>, FL_<n>), which another organisation's survey
 * may use too: these get random large numbers, so the two organisations' names differ.
 */
async function seedDefinitionParts(s: Seeding, surveyId: string): Promise<Ids> {
  const definitions = `/API/v3/survey-definitions/${surveyId}`;
  const block = await s.call('POST', `${definitions}/blocks`, { Description: 'Fuzz block' });
  const question = await s.call('POST', `${definitions}/questions?blockId=${block.BlockID}`, {
    QuestionID: `QID${randomInt(1e8, 1e9)}`,
    QuestionText: 'Fuzz question',
    QuestionType: 'TE',
    Selector: 'SL',
  });
  const flow = await s.call('GET', `${definitions}/flow`);
  const flowId = `FL_${randomInt(1e8, 1e9)}`;
  const renamed = flow.Flow.map((node: { FlowID: string }) =>
    node.FlowID === block.FlowID ? { ...node, FlowID: flowId } : node,
  );
  await s.call('PUT', `${definitions}/flow`, { ...flow, Flow: renamed });
  const version = await s.call('POST', `${definitions}/versions`, { Description: 'Fuzz version' });
  return {
    question: [question.QuestionID],
    block: [block.BlockID],
    flow: [flowId],
    version: [version.metadata.versionID],
  };
}

/** A 360 of the survey (issue 16) with a subject and a nominated evaluator (inactive: nothing is sent). */
async function seedThreeSixty(s: Seeding, surveyId: string): Promise<Ids> {
  const workflow = { relationships: [{ name: 'Peer', min: 1, max: 3 }], allowUnsolicited: true };
  const program = await s.call('POST', '/API/v3/threesixties', { name: 'Fuzz 360', surveyId, workflow });
  const subjects = `/API/v3/threesixties/${program.id}/subjects`;
  const subject = await s.call('POST', subjects, {
    firstName: 'Ada',
    lastName: 'Fuzz',
    email: `ada@${s.brandId}.example`,
  });
  const evaluator = await s.call('POST', `${subjects}/${subject.id}/nominations`, {
    firstName: 'Eve',
    lastName: 'Fuzz',
    email: `eve@${s.brandId}.example`,
    relationship: 'Peer',
  });
  return { threeSixty: [program.id], subject: [subject.id], evaluator: [evaluator.id] };
}

// biome-ignore lint/suspicious/noExplicitAny: seeding reads the fields of several result shapes
async function resultOf(pending: Promise<ApiResponse>, what: string): Promise<any> {
  const res = await pending;
  if (res.status !== 200)
    throw new Error(`seeding: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result;
}

/**
 * Runs every due job (exports, imports) to its end, one at a time, oldest first: the jobs that fuzzed
 * calls queued before this seeding too, since the seed's own come after them. Bounded in count and time.
 */
async function runJobs({ t, config }: Seeding): Promise<void> {
  const deps = { db: t.database.db, clock: t.clock, config };
  const registry = new JobRegistry();
  registry.register(CONTACT_IMPORT_JOB, contactImportJob(deps));
  registry.register(RESPONSE_EXPORT_JOB, responseExportJob(deps));
  registry.register(RESPONSE_IMPORT_JOB, responseImportJob(deps));
  registry.register(RESPONSE_UPDATE_JOB, responseUpdateJob(deps));
  const worker = new JobWorker({ db: t.database.db, clock: t.clock, registry });
  const deadline = Date.now() + 60_000;
  for (let i = 0; i < 2000 && Date.now() < deadline && (await worker.runOnce()) > 0; i++);
}
