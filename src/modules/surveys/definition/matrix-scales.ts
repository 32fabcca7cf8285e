/**
 * The matrix variations whose scale is not one list of points for every row (issue 14 leftovers):
 * - **Profile** (`Matrix`/`Profile`): each row (statement) has its own scale, `Answers[row]` = its points
 *   by id (`{"1": {"1": {"Display": "a1"}, "2": …}, "2": {…}}`, as a public QSF reader reads the type; no
 *   real file we have holds one). A row records the id of its chosen point (`QID1_2` = 3), labelled by
 *   that row's scale.
 * - **Constant sum** and **rank order** matrices (`Matrix`/`CS`, `Matrix`/`RO`): a number per row and
 *   column, `QID1_<row>_<column>`, as a text entry matrix's cells (our reading: no real export we have).
 */

import { isObject } from './is-object.js';
import type { QsfChoices, QsfQuestion } from './qsf.js';

type Shape = Pick<QsfQuestion, 'QuestionType' | 'Selector'>;

export const isProfileMatrix = (question: Shape) =>
  question.QuestionType === 'Matrix' && question.Selector === 'Profile';

/** A matrix whose cells hold numbers: constant sum (`CS`) or rank order (`RO`). */
export const isNumberMatrix = (question: Shape) =>
  question.QuestionType === 'Matrix' && (question.Selector === 'CS' || question.Selector === 'RO');

/** A profile row's own scale, as a question of its own (its points' ids are their recodes). */
export function profileRowScale(question: QsfQuestion, row: string): QsfQuestion {
  const answers: QsfChoices = {};
  for (const [id, point] of Object.entries(question.Answers[row] ?? {})) {
    if (!isObject(point)) continue;
    const display = typeof point.Display === 'string' ? point.Display : id;
    answers[id] = { ...point, Display: display, TextEntry: false, ExclusiveAnswer: false };
  }
  return { ...question, Answers: answers, AnswerOrder: Object.keys(answers), RecodeValues: {} };
}

/**
 * The (sub-)question whose scale points a value under this key is one of: a side-by-side column, a
 * profile matrix's row, or the question itself.
 */
export function scaleOwnerOf(
  question: QsfQuestion,
  key: { column?: string; choiceId?: string },
): QsfQuestion {
  if (key.column) return question.AdditionalQuestions?.[key.column] ?? question;
  if (isProfileMatrix(question) && key.choiceId !== undefined) return profileRowScale(question, key.choiceId);
  return question;
}
