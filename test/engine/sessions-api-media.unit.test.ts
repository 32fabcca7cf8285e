import { describe, expect, it } from 'vitest';
import { readPage } from '../../src/modules/engine/answers.js';
import { toQuestion } from '../../src/modules/engine/question-model.js';
import { apiAnswerOf, formOfAnswers } from '../../src/modules/engine/sessions-api.answers.js';
import type { Question } from '../../src/modules/engine/survey-model.js';
import type { QsfQuestion } from '../../src/modules/surveys/definition/qsf.js';
import { mapShapeQuestions, RIGHT_BOX } from './map-shapes-survey.js';
import { question } from './qsf-builder.js';

/**
 * The sessions API's map answers go through the page's own reader and come back in the shape they were
 * given (sessions-api.media-answers.ts): what a client posts is what it reads back on the page.
 */
const toModel = (element: Record<string, unknown>) => toQuestion(element.Payload as QsfQuestion) as Question;
const [likeDislike, heatMap] = mapShapeQuestions().map(toModel) as [Question, Question];
const onOff = toModel(
  question('QID4', {
    type: 'HotSpot',
    selector: 'OnOff',
    choices: ['Left', 'Right'],
    extra: {
      Regions: [
        { ChoiceID: '1', X: 0, Y: 0, Width: 200, Height: 200 },
        { ChoiceID: '2', ...RIGHT_BOX },
      ],
    },
  }),
);

/** The answer posted, read by the page's reader, and presented again. */
function roundTrip(q: Question, answer: unknown): unknown {
  const { form, files } = formOfAnswers([q], { [q.id]: answer }, {});
  expect(files).toEqual([]);
  const reading = readPage([q], form, (x) => x.choices, { continueWithoutRequested: true });
  expect([...reading.errors.values()]).toEqual([]);
  return apiAnswerOf(q, reading.answers[q.id] ?? {});
}

describe('sessions API map answers', () => {
  it('reads hot spot states back as given (regions at neither left out)', () => {
    expect(roundTrip(onOff, { 1: 'on', 2: 'off' })).toEqual({ 1: 'on', 2: 'off' });
    // On/off: every region is recorded once one is on; none on is no answer.
    expect(roundTrip(onOff, { 2: 'on' })).toEqual({ 1: 'off', 2: 'on' });
    expect(roundTrip(onOff, { 1: 'off' })).toBeUndefined();
    expect(roundTrip(likeDislike, { 1: 'like', 2: 'dislike' })).toEqual({ 1: 'like', 2: 'dislike' });
    expect(roundTrip(likeDislike, { 1: 'neither', 2: 'like' })).toEqual({ 2: 'like' });
  });

  it('reads a heat map click back with the region it fell in, and a region picked without one', () => {
    expect(roundTrip(heatMap, { x: 100, y: 150 })).toEqual({ x: 100, y: 150, region: '1' });
    expect(roundTrip(heatMap, { x: 10, y: 10 })).toEqual({ x: 10, y: 10 }); // outside the triangle
    expect(roundTrip(heatMap, { x: 300, y: 5 })).toEqual({ x: 300, y: 5, region: '2' });
    expect(roundTrip(heatMap, { region: '2' })).toEqual({ region: '2' });
  });

  it('gives files apart from the form, checked but not stored', () => {
    const upload = toModel(
      question('QID1', {
        type: 'FileUpload',
        selector: 'FileUpload',
        extra: { Configuration: { AllowedFileTypes: 'txt' } },
      }),
    );
    const content = Buffer.from('hello').toString('base64');
    const { form, files } = formOfAnswers([upload], { QID1: { name: 'a/b.txt', content } }, {});
    expect(form).toEqual({});
    expect(files).toEqual([
      {
        questionId: 'QID1',
        kind: 'new',
        name: 'a_b.txt',
        type: 'application/octet-stream',
        bytes: Buffer.from('hello'),
      },
    ]);
    const fields = {
      QID1_FILE_ID: ['F_abcdefghijklmno'],
      QID1_FILE_NAME: ['a_b.txt'],
      QID1_FILE_SIZE: ['5'],
      QID1_FILE_TYPE: ['text/plain'],
    };
    expect(apiAnswerOf(upload, fields)).toEqual({
      fileId: 'F_abcdefghijklmno',
      name: 'a_b.txt',
      size: 5,
      type: 'text/plain',
    });
  });
});
