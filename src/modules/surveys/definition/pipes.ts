/**
 * The piped text the survey engine runs (`${scheme://path}`): `e://Field/…`, `rand://int/a:b`,
 * `date://CurrentDate/…` and `date://CurrentTime/…`, `q://QIDn/…` (selected, not selected and displayed
 * choices, their recodes, text and numeric entries, the question text), `lm://Field/n` and
 * `lm://CurrentLoopNumber`. Any other pipe renders empty; the import names it (run-notices.ts).
 */

/** Every pipe of a text (global: use with matchAll or a fresh RegExp). */
export const PIPE = /\$\{([a-z]+):\/\/([^}]*)\}/g;

const Q_PIPE =
  /^(QID\d+)\/(ChoiceGroup\/(SelectedChoices|SelectedChoicesRecode|NotSelectedChoices|DisplayedChoices|SelectedChoicesTextEntry)|ChoiceTextEntryValue(\/[^/]+)?|ChoiceNumericEntryValue\/[^/]+|QuestionText|SelectedChoicesRecode)$/;

export function isKnownPipe(scheme: string, path: string): boolean {
  switch (scheme) {
    case 'e':
      return /^Field\/.+/.test(path);
    case 'rand':
      return /^int\/-?\d+:-?\d+$/.test(path);
    case 'date':
      return /^(CurrentDate|CurrentTime)\/.+/.test(path);
    case 'q':
      return Q_PIPE.test(path);
    case 'lm':
      return /^Field\/\d+$/.test(path) || path === 'CurrentLoopNumber';
    default:
      return false;
  }
}

/** The pipes of a text the engine does not run, as written. */
export function unknownPipes(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(PIPE)) {
    const [whole, scheme = '', path = ''] = match;
    if (!isKnownPipe(scheme, path)) out.push(whole);
  }
  return out;
}
