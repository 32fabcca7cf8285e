import { ApiError } from '../../http/errors.js';
import { type AnswerValue, type Survey, storedAnswer } from '../surveys/definition/response-values.js';
import type { ValueKey } from '../surveys/definition/value-keys.js';

/**
 * The responses module's rule for an answer given by a caller (the API, a response import): its stored
 * form (definition/response-values.ts), or a 400 naming `field`.
 */
export function checkAnswer(
  survey: Survey,
  key: ValueKey,
  value: unknown,
  field: string,
): AnswerValue | undefined {
  const answer = storedAnswer(survey, key, value);
  if ('problem' in answer) throw ApiError.invalid(field, answer.problem);
  return answer.value;
}
