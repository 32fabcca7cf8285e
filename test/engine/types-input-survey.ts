import { block, blockFlow, qsf, question } from './qsf-builder.js';
import { type Placement, placed } from './types-matrix-survey.js';

/** A text entry question with content validation settings as the real files write them. */
const validated = (id: string, text: string, settings: Record<string, unknown>) =>
  question(id, {
    type: 'TE',
    selector: 'SL',
    text,
    extra: { Validation: { Settings: { ForceResponse: 'OFF', ...settings } } },
  });

/**
 * Issue 14 item 2, second part: sliders (labels, grid, snap, not applicable), bars, stars, text
 * validation, file upload, signature, meta info and timing: QID1 to QID13, placed by `at`.
 */
export function inputTypeQuestions(at: Placement = {}) {
  const { id, force } = placed(at);
  return [
    question(id(1), {
      type: 'Slider',
      selector: 'HSLIDER',
      text: 'How likely?',
      choices: ['Oranges', 'Pears'],
      force: force('ON'),
      extra: {
        Configuration: {
          QuestionDescriptionOption: 'UseText',
          CSSliderMin: 0,
          CSSliderMax: 100,
          GridLines: 4,
          SnapToGrid: true,
          NumDecimals: '0',
          ShowValue: true,
          NotApplicable: true,
        },
        Labels: { 1: { Display: 'Unlikely' }, 2: { Display: 'Likely' } },
      },
    }),
    question(id(2), {
      type: 'Slider',
      selector: 'STAR',
      text: 'Rate the shop',
      choices: ['Service'],
      extra: { Configuration: { QuestionDescriptionOption: 'UseText', StarCount: 5, StarType: 'discrete' } },
    }),
    question(id(3), {
      type: 'Slider',
      selector: 'HBAR',
      text: 'How full?',
      choices: ['Tank'],
      extra: {
        Configuration: {
          QuestionDescriptionOption: 'UseText',
          CSSliderMin: 0,
          CSSliderMax: 10,
          NumDecimals: '1',
        },
      },
    }),
    question(id(4), { type: 'Meta', selector: 'Browser', text: 'Browser Meta Info' }),
    question(id(5), { type: 'Timing', selector: 'PageTimer', text: 'Timing' }),
    validated(id(6), 'Your email', { Type: 'ContentType', ContentType: 'ValidEmail' }),
    validated(id(7), 'A date', { Type: 'ContentType', ContentType: 'ValidDate', DateFormat: 'dd/mm/yyyy' }),
    validated(id(8), 'US phone', {
      Type: 'ContentType',
      ContentType: 'ValidPhone',
      ValidPhoneType: 'ValidUSPhone',
    }),
    validated(id(9), 'Any phone', {
      Type: 'ContentType',
      ContentType: 'ValidPhone',
      ValidPhoneType: 'ValidIntPhone',
    }),
    validated(id(10), 'ZIP code', {
      Type: 'ContentType',
      ContentType: 'ValidZip',
      ValidZipType: 'ValidUSZip',
    }),
    validated(id(11), 'A short word', { Type: 'CharRange', MinChars: '2', MaxChars: '5' }),
    question(id(12), {
      type: 'FileUpload',
      selector: 'FileUpload',
      text: 'Upload your CV',
      force: force('ON'),
      extra: {
        Configuration: { QuestionDescriptionOption: 'UseText', AllowedFileTypes: 'txt,pdf', MaxFileSize: 1 },
      },
    }),
    question(id(13), {
      type: 'Draw',
      selector: 'Signature',
      text: 'Sign here',
      force: force('RequestResponse'),
    }),
  ];
}

/** The input types over three pages. */
export function inputTypesSurvey() {
  return qsf({
    blocks: [
      block('BL_input0000000001', [
        'QID1',
        'QID2',
        'QID3',
        'QID4',
        'QID5',
        '|',
        'QID6',
        'QID7',
        'QID8',
        'QID9',
        'QID10',
        'QID11',
        '|',
        'QID12',
        'QID13',
      ]),
    ],
    flow: [blockFlow('BL_input0000000001', 'FL_2')],
    questions: inputTypeQuestions(),
  });
}
