import { typesMatrixMorePages } from '../taking/types-matrix-more-survey.js';
import { mapShapeQuestions, onOffHotSpot } from './map-shapes-survey.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';
import { inputTypeQuestions } from './types-input-survey.js';
import { typesMatrixQuestions } from './types-matrix-survey.js';

const idsOf = (questions: Record<string, unknown>[]) => questions.map((q) => q.PrimaryAttribute as string);

/**
 * A survey with one question of every type the engine draws (docs/engine.md, "Question types"), over
 * seven pages: the first and the second force answers, the third requests one, so the error summary and
 * the "continue without answering" page appear too; the third also holds the matrix-like and ranking types
 * (types-matrix-survey.ts, QID41 to QID47). The fourth (a block of its own) holds the input types
 * (types-input-survey.ts, QID61 to QID73), whose text validation shows its errors; the fifth and sixth
 * the rest of the matrix family (types-matrix-more-survey.ts, QID91 to QID99: the carry-forward source,
 * then profile, constant sum and rank order matrices, validated text matrices and what is carried
 * forward); the seventh the map types (map-shapes-survey.ts: on/off and like/dislike hot spots, a heat
 * map with a polygon region, QID80 to QID82). Nothing after the third page is forced. Question texts use
 * the author's markup the real files hold (paragraphs, styles, a table, a link).
 */
export function everyTypeSurvey() {
  const scale = ['Poor', 'Fair', 'Good'];
  // Issue 14 part 2: matrix text entry, side-by-side with text and dropdown columns, constant sum,
  // pick-group-rank (on the third page, not forced).
  const matrixTypes = typesMatrixQuestions({ offset: 10, suffix: '_every', optional: true });
  const inputTypes = inputTypeQuestions({ offset: 60, optional: true });
  const matrixMore = typesMatrixMorePages({ offset: 90, suffix: '_more' });
  const maps = [onOffHotSpot(), ...mapShapeQuestions()];
  const questions = [
    question('QID1', {
      type: 'DB',
      selector: 'TB',
      text: '<p style="text-align: center;"><span style="font-size:22px; font-weight: bolder">Welcome</span></p><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$10</td></tr></table><p>Read the <a href="https://example.org/terms" target="_blank">terms</a>.</p>',
    }),
    question('QID2', {
      type: 'MC',
      selector: 'SAVR',
      text: 'Which fruit do you like <b>most</b>?',
      choices: ['Apple', 'Pear', { Display: 'Other', TextEntry: 'true' }],
      force: 'ON',
    }),
    question('QID3', { type: 'MC', selector: 'SAHR', text: 'Do you cook?', choices: ['Yes', 'No'] }),
    question('QID4', {
      type: 'MC',
      selector: 'MAVR',
      text: 'Which colours?',
      choices: ['Red', 'Blue', { Display: 'None of these', ExclusiveAnswer: true }],
    }),
    question('QID5', { type: 'MC', selector: 'DL', text: 'Which size?', choices: ['Small', 'Large'] }),
    question('QID6', {
      type: 'MC',
      selector: 'NPS',
      text: 'How likely are you to recommend us?',
      choices: Array.from({ length: 11 }, (_, i) => String(i)),
    }),
    question('QID7', {
      type: 'TE',
      selector: 'SL',
      text: 'How old are you?',
      force: 'ON',
      extra: {
        Validation: {
          Settings: {
            ForceResponse: 'ON',
            Type: 'ContentType',
            ContentType: 'ValidNumber',
            ValidNumber: { Min: '0', Max: '120' },
          },
        },
      },
    }),
    question('QID8', { type: 'TE', selector: 'ML', text: 'Tell us more' }),
    question('QID9', { type: 'TE', selector: 'PW', text: 'A secret word' }),
    question('QID10', {
      type: 'TE',
      selector: 'FORM',
      text: 'Where do you live?',
      choices: ['City', 'Country'],
    }),
    question('QID11', {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'SingleAnswer',
      text: 'Rate these',
      choices: ['Service', 'Price'],
      answers: scale,
    }),
    question('QID12', {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'MultipleAnswer',
      text: 'When do you eat?',
      choices: ['Fruit', 'Bread'],
      answers: ['Morning', 'Evening'],
    }),
    question('QID13', {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'DL',
      text: 'Pick one a row',
      choices: ['Tea', 'Coffee'],
      answers: scale,
    }),
    question('QID14', {
      type: 'Matrix',
      selector: 'Bipolar',
      text: 'Which is closer?',
      choices: ['Cold:Hot'],
      answers: ['1', '2', '3'],
    }),
    question('QID15', {
      type: 'Slider',
      selector: 'HSLIDER',
      text: 'How hungry are you?',
      choices: ['Hunger'],
      extra: {
        Configuration: {
          QuestionDescriptionOption: 'UseText',
          CSSliderMin: 0,
          CSSliderMax: 10,
          NumDecimals: '0',
        },
      },
    }),
    question('QID16', {
      type: 'RO',
      selector: 'DND',
      text: 'Rank these drinks',
      choices: ['Tea', 'Coffee', 'Juice'],
    }),
    question('QID17', {
      type: 'SBS',
      selector: 'SBSMatrix',
      text: 'Groceries',
      choices: ['Bread', 'Milk'],
      extra: {
        AdditionalQuestions: {
          1: {
            QuestionType: 'Matrix',
            Selector: 'Likert',
            SubSelector: 'SingleAnswer',
            QuestionText: 'How often',
            Answers: { 1: { Display: 'Never' }, 2: { Display: 'Daily' } },
            AnswerOrder: ['1', '2'],
          },
          2: {
            QuestionType: 'Matrix',
            Selector: 'Likert',
            SubSelector: 'DL',
            QuestionText: 'Where',
            Answers: { 1: { Display: 'Shop' }, 2: { Display: 'Online' } },
            AnswerOrder: ['1', '2'],
          },
        },
      },
    }),
    question('QID18', { type: 'Timing', selector: 'PageTimer', text: 'Timing' }),
    question('QID19', { type: 'TE', selector: 'SL', text: 'Any comments?', force: 'RequestResponse' }),
    ...matrixTypes,
    ...inputTypes,
    ...matrixMore.questions,
    ...maps,
  ];
  const items = [
    'QID1',
    'QID2',
    'QID3',
    'QID4',
    'QID5',
    'QID6',
    '|',
    'QID7',
    'QID8',
    'QID9',
    'QID10',
    'QID11',
    'QID12',
    'QID13',
    'QID14',
    '|',
    'QID15',
    'QID16',
    'QID17',
    'QID18',
    'QID19',
    ...idsOf(matrixTypes),
  ];
  return qsf({
    blocks: [
      block('BL_every00000000001', items),
      block('BL_every00000000002', idsOf(inputTypes)),
      block('BL_every00000000003', matrixMore.items),
      block('BL_every00000000004', idsOf(maps)),
    ],
    flow: [
      blockFlow('BL_every00000000001', 'FL_2'),
      blockFlow('BL_every00000000002', 'FL_3'),
      blockFlow('BL_every00000000003', 'FL_4'),
      blockFlow('BL_every00000000004', 'FL_5'),
    ],
    questions,
    options: { ProgressBarDisplay: 'Text' },
  });
}
