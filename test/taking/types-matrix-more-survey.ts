import { block, blockFlow, condition, qsf, question } from '../engine/qsf-builder.js';
import { type Placement, placed } from '../engine/types-matrix-survey.js';

/** A carry-forward locator, into the question's choices (rows) or its answers (columns). */
const carried = (into: 'DynamicChoices' | 'DynamicAnswers', from: string, what: string) => ({
  [into]: { DynamicType: 'ChoiceGroup', Type: 'Dynamic', Locator: `q://${from}/ChoiceGroup/${what}` },
});

const validation = (settings: Record<string, unknown>) => ({
  Validation: { Settings: { ForceResponse: 'OFF', ...settings } },
});

/**
 * The issue 14 leftovers of the matrix family: a profile matrix (each row its own scale), constant sum
 * and rank order matrices, text entry matrices validated cell by cell (e-mail, number), and carry-forward
 * of the choices a respondent was shown (`DisplayedChoices`) into choices, matrix rows and, of the choices
 * selected, into matrix columns. Page 1: the source, whose "Water" is hidden by display logic; page 2: the rest.
 * QID1 to QID9 placed by `at`, and the block's items (with the page break).
 */
export function typesMatrixMorePages(at: Placement = {}) {
  const { id, tag } = placed(at);
  const questions = [
    question(id(1), {
      type: 'MC',
      selector: 'MAVR',
      text: 'Which drinks do you like?',
      choices: [
        'Tea',
        'Coffee',
        'Juice',
        {
          Display: 'Water',
          DisplayLogic: condition({
            LogicType: 'EmbeddedField',
            LeftOperand: 'showWater',
            Operator: 'EqualTo',
            RightOperand: 'yes',
          }),
        },
      ],
      extra: { DataExportTag: tag('drinks') },
    }),
    question(id(2), {
      type: 'Matrix',
      selector: 'Profile',
      sub: 'SingleAnswer',
      text: 'Describe your shirt',
      choices: ['Size', 'Colour'],
      extra: {
        DataExportTag: tag('shirt'),
        Answers: {
          1: { 1: { Display: 'Small' }, 2: { Display: 'Large' } },
          2: { 1: { Display: 'Red' }, 2: { Display: 'Green' }, 3: { Display: 'Blue' } },
        },
        AnswerOrder: ['1', '2'],
      },
    }),
    question(id(3), {
      type: 'Matrix',
      selector: 'CS',
      sub: 'TX',
      text: 'Split your budget',
      choices: ['Rent', 'Food'],
      answers: ['This year', 'Next year'],
      extra: { DataExportTag: tag('budget'), ...validation({ Type: 'ChoicesTotal', ChoiceTotal: '100' }) },
    }),
    question(id(4), {
      type: 'Matrix',
      selector: 'RO',
      sub: 'SingleAnswer',
      text: 'Rank the fruit',
      choices: ['Apple', 'Pear', 'Plum'],
      answers: ['Taste', 'Price'],
      extra: { DataExportTag: tag('fruit') },
    }),
    question(id(5), {
      type: 'Matrix',
      selector: 'TE',
      sub: 'Short',
      text: 'Your e-mail addresses',
      choices: ['Home', 'Work'],
      answers: ['E-mail'],
      extra: {
        DataExportTag: tag('emails'),
        ...validation({ Type: 'ContentType', ContentType: 'ValidEmail' }),
      },
    }),
    question(id(6), {
      type: 'Matrix',
      selector: 'TE',
      sub: 'Short',
      text: 'Ages in your household',
      choices: ['You', 'Partner'],
      answers: ['Age'],
      extra: {
        DataExportTag: tag('ages'),
        ...validation({
          Type: 'ContentType',
          ContentType: 'ValidNumber',
          ValidNumber: { Min: '0', Max: '120' },
        }),
      },
    }),
    question(id(7), {
      type: 'MC',
      selector: 'SAVR',
      text: 'Which is your favourite?',
      extra: {
        DataExportTag: tag('favourite'),
        Choices: {},
        ChoiceOrder: [],
        ...carried('DynamicChoices', id(1), 'DisplayedChoices'),
      },
    }),
    question(id(8), {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'SingleAnswer',
      text: 'Hot or cold?',
      answers: ['Hot', 'Cold'],
      extra: {
        DataExportTag: tag('hotcold'),
        Choices: {},
        ChoiceOrder: [],
        ...carried('DynamicChoices', id(1), 'DisplayedChoices'),
      },
    }),
    question(id(9), {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'SingleAnswer',
      text: 'What do you drink when?',
      choices: ['Morning', 'Evening'],
      extra: {
        DataExportTag: tag('when'),
        Answers: {},
        AnswerOrder: [],
        ...carried('DynamicAnswers', id(1), 'SelectedChoices'),
      },
    }),
  ];
  const [source, ...rest] = questions.map((q) => q.PrimaryAttribute as string);
  return { questions, items: [source as string, '|', ...rest] };
}

export function typesMatrixMoreSurvey() {
  const { questions, items } = typesMatrixMorePages();
  return qsf({
    blocks: [block('BL_matrixmore000001', items)],
    flow: [blockFlow('BL_matrixmore000001', 'FL_2')],
    questions,
  });
}
