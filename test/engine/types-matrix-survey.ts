import { block, blockFlow, qsf, question } from './qsf-builder.js';

/** Side-by-side columns of the tests: a single-answer scale, a text entry column and a dropdown. */
const SBS_COLUMNS = {
  1: {
    QuestionType: 'Matrix',
    Selector: 'Likert',
    SubSelector: 'SingleAnswer',
    QuestionText: 'Quality',
    Answers: { 1: { Display: 'Poor' }, 2: { Display: 'Good' } },
    AnswerOrder: ['1', '2'],
  },
  2: {
    QuestionType: 'Matrix',
    Selector: 'TE',
    SubSelector: 'Medium',
    QuestionText: 'Details',
    Answers: { 1: { Display: 'Brand' }, 2: { Display: 'Price paid' } },
    AnswerOrder: ['1', '2'],
  },
  3: {
    QuestionType: 'Matrix',
    Selector: 'Likert',
    SubSelector: 'DL',
    QuestionText: 'Where',
    Answers: { 1: { Display: 'Shop' }, 2: { Display: 'Online' } },
    AnswerOrder: ['1', '2'],
  },
};

/**
 * Where a family of type questions sits in a survey (every-type-survey.ts composes the families): its
 * QIDs moved up by `offset`, `suffix` after its export tags (so two families' tags never meet),
 * `optional`: nothing forced or requested.
 */
export interface Placement {
  offset?: number;
  suffix?: string;
  optional?: boolean;
}

/** A placement's QID of the family's question `n`, its export tag for `tag` and its force for `force`. */
export function placed(at: Placement = {}) {
  return {
    id: (n: number) => `QID${n + (at.offset ?? 0)}`,
    tag: (tag: string) => `${tag}${at.suffix ?? ''}`,
    force: (force: 'ON' | 'RequestResponse') => (at.optional ? 'OFF' : force),
  };
}

/**
 * The matrix-like and ranking types (issue 14 part 2), as QSF writes them: matrix text entry (Short and
 * Long), side-by-side with text-entry and dropdown columns, constant sum with a must-total, pick-group-rank
 * a multiple choice question recoded to letters and a drag-and-drop matrix. Export tags are readable so column names are too.
 * QID31 to QID37, placed by `at`.
 */
export function typesMatrixQuestions(at: Placement = {}) {
  const { id, tag, force } = placed(at);
  return [
    question(id(31), {
      type: 'Matrix',
      selector: 'TE',
      sub: 'Short',
      text: 'What did you eat?',
      choices: ['Monday', 'Tuesday'],
      answers: ['Breakfast', 'Lunch'],
      force: force('ON'),
      extra: { DataExportTag: tag('meals') },
    }),
    question(id(32), {
      type: 'Matrix',
      selector: 'TE',
      sub: 'Long',
      text: 'Describe your work',
      choices: ['Current job'],
      answers: ['Tasks'],
      extra: { DataExportTag: tag('work') },
    }),
    question(id(33), {
      type: 'SBS',
      selector: 'SBSMatrix',
      text: 'Your appliances',
      choices: ['Kettle', 'Toaster'],
      extra: { DataExportTag: tag('appliances'), AdditionalQuestions: SBS_COLUMNS },
    }),
    question(id(34), {
      type: 'CS',
      selector: 'VRTL',
      sub: 'TX',
      text: 'Split your budget',
      choices: ['Rent', 'Food', 'Fun'],
      extra: {
        DataExportTag: tag('budget'),
        Validation: {
          Settings: { ForceResponse: 'OFF', Type: 'ChoicesTotal', ChoiceTotal: '100', EnforceRange: 'ON' },
        },
      },
    }),
    question(id(35), {
      type: 'PGR',
      selector: 'DragAndDrop',
      sub: 'Columns',
      text: 'Sort your things',
      choices: ['Books', 'Lamp', 'Chair'],
      extra: {
        DataExportTag: tag('things'),
        Groups: ['Keep', 'Give away'],
        NumberOfGroups: 2,
        Configuration: { QuestionDescriptionOption: 'UseText', Stack: false, StackItemsInGroups: false },
      },
    }),
    question(id(36), {
      type: 'MC',
      selector: 'SAVR',
      text: 'Do you rent?',
      choices: ['Yes', 'No'],
      extra: { DataExportTag: tag('renting'), RecodeValues: { 1: 'y', 2: 'n' } },
    }),
    question(id(37), {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'DND',
      text: 'How do you travel?',
      choices: ['Work', 'Holidays'],
      answers: ['Car', 'Train'],
      extra: { DataExportTag: tag('travel') },
    }),
  ];
}

export const TYPES_MATRIX_QUESTIONS = typesMatrixQuestions();

/** Two pages: the matrices first, then constant sum, pick-group-rank and the lettered recodes. */
export function typesMatrixSurvey() {
  const items = ['QID31', 'QID32', 'QID33', '|', 'QID34', 'QID35', 'QID36', 'QID37'];
  return qsf({
    blocks: [block('BL_matrixtypes00001', items)],
    flow: [blockFlow('BL_matrixtypes00001', 'FL_2')],
    questions: TYPES_MATRIX_QUESTIONS,
  });
}
