import { block, blockFlow, qsf, question } from './qsf-builder.js';

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
 * validation, file upload, signature, meta info and timing, over three pages.
 */
export function inputTypesSurvey() {
  const questions = [
    question('QID1', {
      type: 'Slider',
      selector: 'HSLIDER',
      text: 'How likely?',
      choices: ['Oranges', 'Pears'],
      force: 'ON',
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
    question('QID2', {
      type: 'Slider',
      selector: 'STAR',
      text: 'Rate the shop',
      choices: ['Service'],
      extra: { Configuration: { QuestionDescriptionOption: 'UseText', StarCount: 5, StarType: 'discrete' } },
    }),
    question('QID3', {
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
    question('QID4', { type: 'Meta', selector: 'Browser', text: 'Browser Meta Info' }),
    question('QID5', { type: 'Timing', selector: 'PageTimer', text: 'Timing' }),
    validated('QID6', 'Your email', { Type: 'ContentType', ContentType: 'ValidEmail' }),
    validated('QID7', 'A date', { Type: 'ContentType', ContentType: 'ValidDate', DateFormat: 'dd/mm/yyyy' }),
    validated('QID8', 'US phone', {
      Type: 'ContentType',
      ContentType: 'ValidPhone',
      ValidPhoneType: 'ValidUSPhone',
    }),
    validated('QID9', 'Any phone', {
      Type: 'ContentType',
      ContentType: 'ValidPhone',
      ValidPhoneType: 'ValidIntPhone',
    }),
    validated('QID10', 'ZIP code', {
      Type: 'ContentType',
      ContentType: 'ValidZip',
      ValidZipType: 'ValidUSZip',
    }),
    validated('QID11', 'A short word', { Type: 'CharRange', MinChars: '2', MaxChars: '5' }),
    question('QID12', {
      type: 'FileUpload',
      selector: 'FileUpload',
      text: 'Upload your CV',
      force: 'ON',
      extra: {
        Configuration: { QuestionDescriptionOption: 'UseText', AllowedFileTypes: 'txt,pdf', MaxFileSize: 1 },
      },
    }),
    question('QID13', { type: 'Draw', selector: 'Signature', text: 'Sign here', force: 'RequestResponse' }),
  ];
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
    questions,
  });
}
