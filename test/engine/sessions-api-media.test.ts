import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { downloadFile } from '../exports/export-runs.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey } from './engine-helpers.js';
import { greyPng, mapShapeQuestions, RIGHT_BOX } from './map-shapes-survey.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

/**
 * The sessions API answers file upload, signature, heat map and hot spot questions
 * (sessions-api.media-answers.ts): files in base64 within the question's limits, stored in the
 * BlobStore (here the database's, so what is stored can be counted) and served back from the response;
 * refused files are a 400 in the v3 envelope and leave nothing stored.
 */

let t: TestApp;
let org: BootstrapResult;
let surveyId: string;

const CV = 'Ada Lovelace\nAnalyst\n';
const SIGNATURE = greyPng(60, 20);
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

function mediaSurvey() {
  return qsf({
    blocks: [block('BL_media00000000001', ['QID1', 'QID2', 'QID3', '|', 'QID4', 'QID81', 'QID82'])],
    flow: [blockFlow('BL_media00000000001', 'FL_2')],
    questions: [
      question('QID1', {
        type: 'FileUpload',
        selector: 'FileUpload',
        text: 'Upload your CV',
        force: 'ON',
        extra: { Configuration: { AllowedFileTypes: 'txt,pdf', MaxFileSize: 1 } },
      }),
      question('QID2', { type: 'Draw', selector: 'Signature', text: 'Sign here' }),
      question('QID3', { type: 'TE', selector: 'SL', text: 'Your name', force: 'ON' }),
      question('QID4', {
        type: 'HotSpot',
        selector: 'OnOff',
        text: 'Which parts do you like?',
        choices: ['Left', 'Right'],
        extra: {
          Graphics: 'IM_000000000000001',
          Regions: [
            { ChoiceID: '1', X: 0, Y: 0, Width: 200, Height: 200 },
            { ChoiceID: '2', ...RIGHT_BOX },
          ],
        },
      }),
      ...mapShapeQuestions(),
    ],
  });
}

beforeAll(async () => {
  t = await buildTestApp({ config: { blobStore: 'database' } });
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(mediaSurvey()));
});
afterAll(async () => {
  await t?.close();
});

const sessions = `/API/v3/surveys/`;
const start = async () => {
  const res = await t.call(org.apiToken, 'POST', `${sessions}${surveyId}/sessions`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as { sessionId: string; questions: Record<string, unknown>[] };
};
const advance = (sessionId: string, responses: object) =>
  t.call(org.apiToken, 'POST', `${sessions}${surveyId}/sessions/${sessionId}`, { advance: true, responses });

/** The session's stored response files (live blobs under `<org>/response-files/<session>/`). */
const storedFiles = async (sessionId: string) =>
  (
    await t.database.db
      .selectFrom('blobs')
      .select('key')
      .where('key', 'like', `${org.brandId}/response-files/${sessionId}/%`)
      .execute()
  ).map((r) => r.key);

function expectRefused(res: Awaited<ReturnType<typeof advance>>, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.meta.httpStatus).toBe('400 - Bad Request');
  expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
  expect(res.body.meta.error.errorMessage).toContain(field);
}

describe('sessions API: files, signatures and maps', () => {
  it('refuses a file too large or of a type the question does not take, and stores nothing', async () => {
    const { sessionId, questions } = await start();
    expect(questions.find((q) => q.questionId === 'QID1')).toMatchObject({
      upload: { maxBytes: 1024 * 1024, fileTypes: ['txt', 'pdf'] },
    });
    const tooLarge = await advance(sessionId, {
      QID1: { name: 'cv.txt', type: 'text/plain', content: b64(Buffer.alloc(1024 * 1024 + 1, 0x61)) },
      QID3: 'Ada',
    });
    expectRefused(tooLarge, 'responses.QID1.content is larger than this question takes (1048576 bytes)');
    const wrongType = await advance(sessionId, {
      QID1: { name: 'cv.exe', type: 'application/octet-stream', content: b64(CV) },
      QID3: 'Ada',
    });
    expectRefused(wrongType, 'responses.QID1.name is not a type this question takes');
    const notBase64 = await advance(sessionId, {
      QID1: { name: 'cv.txt', content: 'not base64!' },
      QID3: 'Ada',
    });
    expectRefused(notBase64, 'responses.QID1.content must be the file in base64');
    const notPng = await advance(sessionId, {
      QID1: { name: 'cv.txt', content: b64(CV) },
      QID2: { content: b64('GIF89a not a png') },
      QID3: 'Ada',
    });
    expectRefused(notPng, 'responses.QID2.content must be a PNG image');
    // Good files on a page refused for another answer (the forced name): stored, then removed again.
    const forced = await advance(sessionId, {
      QID1: { name: 'cv.txt', type: 'text/plain', content: b64(CV) },
      QID2: { content: b64(SIGNATURE) },
    });
    expectRefused(forced, 'responses.QID3: Please answer this question.');
    expect(await storedFiles(sessionId)).toEqual([]);
    const session = await t.call(org.apiToken, 'GET', `${sessions}${surveyId}/sessions/${sessionId}`);
    expect(session.body.result.questions.map((q: { questionId: string }) => q.questionId)).toEqual([
      'QID1',
      'QID2',
      'QID3',
    ]);
  });

  it('stores a file and a signature, takes map answers, and serves the files from the response', async () => {
    const { sessionId } = await start();
    const page2 = await advance(sessionId, {
      QID1: { name: 'cv.txt', type: 'text/plain', content: b64(CV) },
      QID2: { content: b64(SIGNATURE) },
      QID3: 'Ada',
    });
    expect(page2.status, JSON.stringify(page2.body)).toBe(200);
    expect(await storedFiles(sessionId)).toHaveLength(2);
    const questions = page2.body.result.questions as { questionId: string; regionStates?: string[] }[];
    expect(questions.map((q) => [q.questionId, q.regionStates])).toEqual([
      ['QID4', ['on', 'off']],
      ['QID81', ['neither', 'like', 'dislike']],
      ['QID82', undefined],
    ]);
    // States the question does not take, a region it does not have, a point and a region at once.
    expectRefused(
      await advance(sessionId, { QID4: { 1: 'like' } }),
      'responses.QID4.1 must be "on" or "off"',
    );
    expectRefused(await advance(sessionId, { QID81: { 3: 'like' } }), 'responses.QID81.3 is not a region');
    expectRefused(
      await advance(sessionId, { QID82: { x: 1, y: 2, region: '1' } }),
      'responses.QID82 takes a point or a region, not both',
    );
    expectRefused(await advance(sessionId, { QID82: { x: -1, y: 2 } }), 'responses.QID82.x must be a number');
    const end = await advance(sessionId, {
      QID4: { 1: 'on', 2: 'off' },
      QID81: { 1: 'dislike', 2: 'neither' },
      // In the triangle's bounding box but not the triangle: no region; then a second session in it.
      QID82: { x: 190, y: 10 },
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body.result.status).toBe('complete');
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${end.body.result.responseId}`,
    );
    const values = res.body.result.values;
    expect(values).toMatchObject({
      QID1_FILE_NAME: 'cv.txt',
      QID1_FILE_SIZE: Buffer.byteLength(CV),
      QID1_FILE_TYPE: 'text/plain',
      QID2_FILE_NAME: 'signature.png',
      QID2_FILE_SIZE: SIGNATURE.length,
      QID2_FILE_TYPE: 'image/png',
      QID4_1: 1,
      QID4_2: 2,
      QID81_1: 2,
      QID82_1_x: 190,
      QID82_1_y: 10,
    });
    expect([values.QID81_2, values.QID82_1, values.QID82_2]).toEqual([undefined, undefined, undefined]);
    const url = (fileId: string) =>
      `/API/v3/surveys/${surveyId}/responses/${end.body.result.responseId}/uploaded-files/${fileId}`;
    const file = await downloadFile(t, org.apiToken, url(values.QID1_FILE_ID));
    expect(file.status).toBe(200);
    expect(file.bytes.toString('utf8')).toBe(CV);
    const signature = await downloadFile(t, org.apiToken, url(values.QID2_FILE_ID));
    expect(signature.status).toBe(200);
    expect(signature.bytes.equals(SIGNATURE)).toBe(true);

    // Another session cannot keep this session's file by naming its id.
    const other = await start();
    const stolen = await advance(other.sessionId, { QID1: { fileId: values.QID1_FILE_ID }, QID3: 'Eve' });
    expectRefused(stolen, 'responses.QID1.fileId is not a file of this session');
  });

  it('takes a file larger than the API’s usual body limit, up to the question’s 16 MB', async () => {
    const doc = qsf({
      blocks: [block('BL_large00000000001', ['QID1'])],
      flow: [blockFlow('BL_large00000000001', 'FL_2')],
      questions: [question('QID1', { type: 'FileUpload', selector: 'FileUpload', text: 'Your data' })],
    });
    const large = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    const created = await t.call(org.apiToken, 'POST', `${sessions}${large}/sessions`, {});
    const bytes = Buffer.alloc(12 * 1024 * 1024, 0x62);
    const end = await t.call(
      org.apiToken,
      'POST',
      `${sessions}${large}/sessions/${created.body.result.sessionId}`,
      {
        advance: true,
        responses: { QID1: { name: 'data.bin', content: b64(bytes) } },
      },
    );
    expect(end.status, JSON.stringify(end.body).slice(0, 300)).toBe(200);
    const { values } = (
      await t.call(org.apiToken, 'GET', `/API/v3/surveys/${large}/responses/${end.body.result.responseId}`)
    ).body.result;
    expect(values).toMatchObject({
      QID1_FILE_SIZE: bytes.length,
      QID1_FILE_TYPE: 'application/octet-stream',
    });
  });

  it('finds the heat map region a point falls in, in the polygon', async () => {
    const { sessionId } = await start();
    await advance(sessionId, { QID1: { name: 'cv.pdf', content: b64('%PDF-1.4') }, QID3: 'Ada' });
    const end = await advance(sessionId, { QID82: { x: 100, y: 150 }, QID81: { 2: 'like' } });
    expect(end.body.result.status, JSON.stringify(end.body)).toBe('complete');
    const { values } = (
      await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${end.body.result.responseId}`)
    ).body.result;
    expect(values).toMatchObject({
      QID82_1_x: 100,
      QID82_1_y: 150,
      QID82_1: 1,
      QID81_2: 1,
      QID1_FILE_NAME: 'cv.pdf',
    });
  });
});
