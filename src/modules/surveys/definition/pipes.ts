/**
 * Piped text (`${scheme://path}`), found by one parser for the survey engine and for library messages
 * (messages/piped-text.ts). The engine runs `e://Field/…`, `rand://int/a:b`, `date://CurrentDate/…` and
 * `date://CurrentTime/…`, `q://QIDn/…` (selected, not selected and displayed choices, their recodes, text
 * and numeric entries, the question text), `lm://Field/n` and `lm://CurrentLoopNumber`. Any other pipe
 * renders empty; the import names it (run-notices.ts).
 */

/** One `${…}` of a text. */
export interface Pipe {
  /** Index of the `$`. */
  start: number;
  /** Index just past the closing `}`. */
  end: number;
  /** The text between `${` and its matching `}`. */
  body: string;
}

/**
 * Every `${` whose `{` has a matching `}`, outermost first, in order. Braces are matched in one pass with a
 * stack, so a megabyte of `${${${` costs linear time. A `${` never closed is plain text; a pipe that contains
 * another (`${e://Field/${m://Email}}`) is one pipe, and an unknown one.
 */
export function findPipes(text: string): Pipe[] {
  const closeOf = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) open.push(i);
    else if (c === 0x7d /* } */ && open.length > 0) closeOf.set(open.pop() as number, i);
  }
  const pipes: Pipe[] = [];
  let i = text.indexOf('${');
  while (i !== -1) {
    const close = closeOf.get(i + 1);
    if (close === undefined) {
      i = text.indexOf('${', i + 2);
      continue;
    }
    pipes.push({ start: i, end: close + 1, body: text.slice(i + 2, close) });
    i = text.indexOf('${', close + 1);
  }
  return pipes;
}

/** The scheme and path of a pipe's body (`e`, `Field/city`), or undefined for another shape (`${}`, `${x}`). */
export function pipeParts(body: string): { scheme: string; path: string } | undefined {
  const match = /^([a-z]+):\/\/(.*)$/s.exec(body);
  return match ? { scheme: match[1] ?? '', path: match[2] ?? '' } : undefined;
}

/** `text` with every `${scheme://path}` replaced by `value`'s answer; a `${…}` of another shape stays. */
export function replacePipes(text: string, value: (scheme: string, path: string) => string): string {
  if (!text.includes('${')) return text;
  let out = '';
  let last = 0;
  for (const pipe of findPipes(text)) {
    const parts = pipeParts(pipe.body);
    if (parts === undefined) continue;
    out += text.slice(last, pipe.start) + value(parts.scheme, parts.path);
    last = pipe.end;
  }
  return out + text.slice(last);
}

const Q_PIPE =
  /^(QID\d+)\/(ChoiceGroup\/(SelectedChoices|SelectedChoicesRecode|NotSelectedChoices|DisplayedChoices|SelectedChoicesTextEntry)|ChoiceTextEntryValue(\/[^/]+)?|ChoiceNumericEntryValue\/[^/]+|QuestionText|SelectedChoicesRecode)$/;

export function isKnownPipe(scheme: string, path: string): boolean {
  // A pipe inside another is never run (see findPipes).
  if (path.includes('{') || path.includes('}')) return false;
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
  return findPipes(text)
    .filter((pipe) => {
      const parts = pipeParts(pipe.body);
      return parts !== undefined && !isKnownPipe(parts.scheme, parts.path);
    })
    .map((pipe) => text.slice(pipe.start, pipe.end));
}
