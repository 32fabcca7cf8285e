import type { QsfQuestion } from './qsf.js';

/**
 * The question types the survey-taking engine runs (issue 5), by QSF QuestionType and Selector, with the
 * SubSelectors allowed (`*` any). A question of any other type is still imported, stored and served; the
 * import answer lists it in `meta.notice`, and the engine shows it as not available.
 */
const SUPPORTED: Record<string, Record<string, readonly string[]>> = {
  MC: {
    SAVR: ['*'],
    SAHR: ['*'],
    SACOL: ['*'],
    DL: ['*'],
    SB: ['*'],
    MAVR: ['*'],
    MAHR: ['*'],
    MACOL: ['*'],
    MSB: ['*'],
    NPS: ['*'],
  },
  TE: { SL: ['*'], ML: ['*'], ESTB: ['*'], PW: ['*'], FORM: ['*'] },
  // Likert `DND` (drag and drop, also spelled `DragAndDrop` here): the platform's docs say its data is a
  // single-answer matrix's; no real file we have shows the SubSelector's spelling.
  Matrix: {
    Likert: ['SingleAnswer', 'MultipleAnswer', 'DL', 'DND', 'DragAndDrop'],
    Bipolar: ['*'],
    TE: ['*'],
    // Each row its own scale, constant sum and rank order cells (matrix-scales.ts; no real file we have).
    Profile: ['SingleAnswer', 'DL'],
    CS: ['*'],
    RO: ['*'],
  },
  Slider: { HSLIDER: ['*'], HBAR: ['*'], STAR: ['*'] },
  RO: { DND: ['*'], RB: ['*'], TB: ['*'], SB: ['*'] },
  SBS: { SBSMatrix: ['*'] },
  DB: { TB: ['*'], GRB: ['*'], PTB: ['*'], FLB: ['*'] },
  Timing: { PageTimer: ['*'] },
  Meta: { Browser: ['*'] },
  FileUpload: { FileUpload: ['*'] },
  Draw: { Signature: ['*'] },
  CS: { VRTL: ['*'], HR: ['*'], HBAR: ['*'], HSLIDER: ['*'] },
  PGR: { DragAndDrop: ['*'] },
  // No real file we have: the selectors as public QSF readers write them (answers-map.ts).
  HeatMap: { Image: ['*'] },
  HotSpot: { OnOff: ['*'], LikeDislike: ['*'] },
};

/** Side-by-side columns the engine runs: single- or multi-answer matrices, dropdowns and text entry. */
const isSupportedColumn = (column: QsfQuestion) =>
  column.QuestionType === 'Matrix' &&
  (['SingleAnswer', 'MultipleAnswer', 'DL'].includes(column.SubSelector ?? '') || column.Selector === 'TE');

/** Can the engine run this question? Side-by-side needs every column to be one the engine runs. */
export function isSupportedQuestion(question: QsfQuestion): boolean {
  const subSelectors = SUPPORTED[question.QuestionType]?.[question.Selector];
  if (!subSelectors) return false;
  if (!subSelectors.includes('*') && !subSelectors.includes(question.SubSelector ?? '')) return false;
  if (question.QuestionType === 'SBS') {
    return Object.values(question.AdditionalQuestions ?? {}).every(isSupportedColumn);
  }
  return true;
}

/** Is it a multiple-choice question that takes several answers? */
export function isMultiAnswer(question: Pick<QsfQuestion, 'QuestionType' | 'Selector' | 'SubSelector'>) {
  if (question.QuestionType === 'MC') return ['MAVR', 'MAHR', 'MACOL', 'MSB'].includes(question.Selector);
  if (question.QuestionType === 'Matrix') return question.SubSelector === 'MultipleAnswer';
  return false;
}

/** A matrix whose cells take typed text (`Selector: TE`, SubSelector Short/Medium/Long). */
export const isTextMatrix = (question: Pick<QsfQuestion, 'QuestionType' | 'Selector'>) =>
  question.QuestionType === 'Matrix' && question.Selector === 'TE';

/** `QID7 (TE/ESTB)`: how a question is named in notices. */
export function describeQuestion(question: QsfQuestion): string {
  const selector = [question.Selector, question.SubSelector].filter(Boolean).join('/');
  return `${question.QuestionID} (${question.QuestionType}/${selector})`;
}
