import { block, blockFlow, qsf, question } from './qsf-builder.js';
import { inputTypesSurvey } from './types-input-survey.js';
import { matrixTypesForEveryType } from './types-matrix-survey.js';

type Element = { Element: string; PrimaryAttribute: string; Payload: Record<string, unknown> };

/**
 * The input types of types-input-survey.ts (sliders with "not applicable", stars, bars, meta info,
 * timing, text validation, a file upload, a signature), renumbered from QID61, none forced: the
 * every-type survey's fourth page, a block of its own.
 */
function inputTypesForEveryType(): { questions: Element[]; ids: string[] } {
  const elements = (inputTypesSurvey().SurveyElements as Element[]).filter((e) => e.Element === 'SQ');
  const questions = elements.map((element, i) => {
    const id = `QID${61 + i}`;
    const copy = structuredClone(element);
    const settings = (copy.Payload.Validation as { Settings: Record<string, unknown> }).Settings;
    settings.ForceResponse = 'OFF';
    Object.assign(copy.Payload, { QuestionID: id, DataExportTag: `${copy.Payload.DataExportTag}_input` });
    copy.PrimaryAttribute = id;
    return copy;
  });
  return { questions, ids: questions.map((q) => q.PrimaryAttribute) };
}

/**
 * A survey with one question of every type the engine draws (docs/engine.md, "Question types"), over
 * four pages: the first and the second force answers, the third requests one, so the error summary and
 * the "continue without answering" page appear too; the fourth (a block of its own) holds the input types,
 * whose text validation shows its errors. Question texts use the author's markup the real
 * files hold (paragraphs, styles, a table, a link).
 */
export function everyTypeSurvey() {
  const scale = ['Poor', 'Fair', 'Good'];
  // Issue 14 part 2: matrix text entry, side-by-side with text and dropdown columns, constant sum,
  // pick-group-rank (on the last page, not forced).
  const matrixTypes = matrixTypesForEveryType();
  const inputTypes = inputTypesForEveryType();
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
    ...matrixTypes.questions,
    ...inputTypes.questions,
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
    ...matrixTypes.ids,
  ];
  return qsf({
    blocks: [block('BL_every00000000001', items), block('BL_every00000000002', inputTypes.ids)],
    flow: [blockFlow('BL_every00000000001', 'FL_2'), blockFlow('BL_every00000000002', 'FL_3')],
    questions,
    options: { ProgressBarDisplay: 'Text' },
  });
}
