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
  Matrix: { Likert: ['SingleAnswer', 'MultipleAnswer', 'DL'], Bipolar: ['*'] },
  Slider: { HSLIDER: ['*'], HBAR: ['*'], STAR: ['*'] },
  RO: { DND: ['*'], RB: ['*'], TB: ['*'], SB: ['*'] },
  SBS: { SBSMatrix: ['*'] },
  DB: { TB: ['*'], GRB: ['*'], PTB: ['*'], FLB: ['*'] },
  Timing: { PageTimer: ['*'] },
};

/** Can the engine run this question? Side-by-side needs every column to be a single- or multi-answer matrix or a dropdown. */
export function isSupportedQuestion(question: QsfQuestion): boolean {
  const subSelectors = SUPPORTED[question.QuestionType]?.[question.Selector];
  if (!subSelectors) return false;
  if (!subSelectors.includes('*') && !subSelectors.includes(question.SubSelector ?? '')) return false;
  if (question.QuestionType === 'SBS') {
    return Object.values(question.AdditionalQuestions ?? {}).every(
      (column) =>
        column.QuestionType === 'Matrix' &&
        ['SingleAnswer', 'MultipleAnswer', 'DL'].includes(column.SubSelector ?? ''),
    );
  }
  return true;
}

/** Is it a multiple-choice question that takes several answers? */
export function isMultiAnswer(question: Pick<QsfQuestion, 'QuestionType' | 'Selector' | 'SubSelector'>) {
  if (question.QuestionType === 'MC') return ['MAVR', 'MAHR', 'MACOL', 'MSB'].includes(question.Selector);
  if (question.QuestionType === 'Matrix') return question.SubSelector === 'MultipleAnswer';
  return false;
}

/** `QID7 (TE/ESTB)`: how a question is named in notices. */
export function describeQuestion(question: QsfQuestion): string {
  const selector = [question.Selector, question.SubSelector].filter(Boolean).join('/');
  return `${question.QuestionID} (${question.QuestionType}/${selector})`;
}
