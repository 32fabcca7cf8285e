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
 * The matrix-like and ranking types (issue 14 part 2), as QSF writes them: matrix text entry (Short and
 * Long), side-by-side with text-entry and dropdown columns, constant sum with a must-total, pick-group-rank
 * a multiple choice question recoded to letters and a drag-and-drop matrix. Export tags are readable so column names are too.
 */
export const TYPES_MATRIX_QUESTIONS = [
  question('QID31', {
    type: 'Matrix',
    selector: 'TE',
    sub: 'Short',
    text: 'What did you eat?',
    choices: ['Monday', 'Tuesday'],
    answers: ['Breakfast', 'Lunch'],
    force: 'ON',
    extra: { DataExportTag: 'meals' },
  }),
  question('QID32', {
    type: 'Matrix',
    selector: 'TE',
    sub: 'Long',
    text: 'Describe your work',
    choices: ['Current job'],
    answers: ['Tasks'],
    extra: { DataExportTag: 'work' },
  }),
  question('QID33', {
    type: 'SBS',
    selector: 'SBSMatrix',
    text: 'Your appliances',
    choices: ['Kettle', 'Toaster'],
    extra: { DataExportTag: 'appliances', AdditionalQuestions: SBS_COLUMNS },
  }),
  question('QID34', {
    type: 'CS',
    selector: 'VRTL',
    sub: 'TX',
    text: 'Split your budget',
    choices: ['Rent', 'Food', 'Fun'],
    extra: {
      DataExportTag: 'budget',
      Validation: {
        Settings: { ForceResponse: 'OFF', Type: 'ChoicesTotal', ChoiceTotal: '100', EnforceRange: 'ON' },
      },
    },
  }),
  question('QID35', {
    type: 'PGR',
    selector: 'DragAndDrop',
    sub: 'Columns',
    text: 'Sort your things',
    choices: ['Books', 'Lamp', 'Chair'],
    extra: {
      DataExportTag: 'things',
      Groups: ['Keep', 'Give away'],
      NumberOfGroups: 2,
      Configuration: { QuestionDescriptionOption: 'UseText', Stack: false, StackItemsInGroups: false },
    },
  }),
  question('QID36', {
    type: 'MC',
    selector: 'SAVR',
    text: 'Do you rent?',
    choices: ['Yes', 'No'],
    extra: { DataExportTag: 'renting', RecodeValues: { 1: 'y', 2: 'n' } },
  }),
  question('QID37', {
    type: 'Matrix',
    selector: 'Likert',
    sub: 'DND',
    text: 'How do you travel?',
    choices: ['Work', 'Holidays'],
    answers: ['Car', 'Train'],
    extra: { DataExportTag: 'travel' },
  }),
];

/** Two pages: the matrices first, then constant sum, pick-group-rank and the lettered recodes. */
export function typesMatrixSurvey() {
  const items = ['QID31', 'QID32', 'QID33', '|', 'QID34', 'QID35', 'QID36', 'QID37'];
  return qsf({
    blocks: [block('BL_matrixtypes00001', items)],
    flow: [blockFlow('BL_matrixtypes00001', 'FL_2')],
    questions: TYPES_MATRIX_QUESTIONS,
  });
}

/**
 * The same questions for the every-type survey's last page (every-type-survey.ts), renumbered from QID41
 * and not forced, so that survey's walk (which leaves its last page unanswered) still ends.
 */
export function matrixTypesForEveryType(): { questions: Record<string, unknown>[]; ids: string[] } {
  const questions = TYPES_MATRIX_QUESTIONS.map((element, i) => {
    const id = `QID${41 + i}`;
    const copy = structuredClone(element) as { PrimaryAttribute: string; Payload: Record<string, unknown> };
    const settings = (copy.Payload.Validation as { Settings: Record<string, unknown> }).Settings;
    settings.ForceResponse = 'OFF';
    Object.assign(copy.Payload, { QuestionID: id, DataExportTag: `${copy.Payload.DataExportTag}_every` });
    copy.PrimaryAttribute = id;
    return copy;
  });
  return { questions, ids: questions.map((q) => q.PrimaryAttribute) };
}
