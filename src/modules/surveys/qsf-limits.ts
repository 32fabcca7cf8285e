import { unstorableText } from '../../db/storable-text.js';
import { ApiError } from '../../http/errors.js';
import { isObject } from './definition/is-object.js';

/**
 * Limits no real survey reaches, checked before a QSF file is read further (issue 19 item 8). A file
 * under the 20 MB upload limit can still hold 50,000 questions, and every read of such a survey (the
 * record, each page of the engine) would hold the one event loop for seconds. The real files of
 * ../shared/fixtures have at most 52 questions, 11 choices, 9 blocks, 14 flow entries 2 deep and JSON
 * 12 levels deep: each limit is more than 30 times what they use.
 */
export const QSF_LIMITS = {
  /** SurveyElements entries of every kind. */
  elements: 10_000,
  questions: 2_000,
  /** Per question: its choices, and its answers (a matrix's scale points) apart. */
  choices: 1_000,
  /** Side-by-side columns of one question. */
  columns: 100,
  blocks: 500,
  /** Questions and page breaks of all blocks together. */
  blockElements: 10_000,
  flowEntries: 2_000,
  flowDepth: 20,
  /** Embedded data fields set in the flow, all together. */
  embeddedFields: 2_000,
  quotas: 1_000,
  /** Arrays and objects inside one another, anywhere in the file. */
  nesting: 64,
} as const;

const sizeOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 0;

function beyond(what: string, count: number, limit: number, where: string): ApiError {
  return ApiError.of(
    'FW_SUR_2',
    `The survey has ${count} ${what} (${where}); Fieldwork takes at most ${limit}, far beyond any real survey.`,
  );
}

interface Visit {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Visit | undefined;
}

const pathOf = (visit: Visit, root: string): string => {
  const parts: string[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent)
    parts.push(typeof v.key === 'number' ? `[${v.key}]` : `.${v.key}`);
  return root + parts.reverse().join('');
};

/**
 * Walks the whole parsed document without recursion: nesting past the limit is 400 FW_SUR_2, and a text
 * no engine stores (a NUL, a lone surrogate) is 400 FW_VAL_1 naming where it is. Run it before any
 * recursive code (JSON.stringify, the flow's normaliser) sees the document.
 */
export function checkQsfShape(input: unknown, field: string): void {
  const stack: Visit[] = [{ value: input, depth: 1, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem !== undefined) throw ApiError.invalid(pathOf(visit, field), problem);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > QSF_LIMITS.nesting)
      throw ApiError.of(
        'FW_SUR_2',
        `${pathOf(visit, field)} nests arrays or objects more than ${QSF_LIMITS.nesting} levels deep; real surveys use about 12.`,
      );
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const problem = typeof key === 'string' ? unstorableText(key) : undefined;
      if (problem !== undefined) throw ApiError.invalid(`${pathOf(visit, field)} has a key that`, problem);
      stack.push({ value: child, depth: depth + 1, key, parent: visit });
    }
  }
}

/** Counts what the survey holds against QSF_LIMITS; the first count past its limit is 400 FW_SUR_2. */
export function checkQsfCounts(elements: unknown[], field: string): void {
  const where = `${field}.SurveyElements`;
  if (elements.length > QSF_LIMITS.elements)
    throw beyond('survey elements', elements.length, QSF_LIMITS.elements, where);
  const totals = { questions: 0, blocks: 0, blockElements: 0, quotas: 0 };
  elements.forEach((element, index) => {
    if (!isObject(element)) return;
    const at = `${where}[${index}].Payload`;
    if (element.Element === 'SQ') {
      totals.questions++;
      checkQuestion(element.Payload, at);
    } else if (element.Element === 'BL') {
      const blocks = Array.isArray(element.Payload) ? element.Payload : Object.values(element.Payload ?? {});
      totals.blocks += blocks.length;
      for (const block of blocks) totals.blockElements += isObject(block) ? sizeOf(block.BlockElements) : 0;
    } else if (element.Element === 'FL') {
      checkFlow(element.Payload, at);
    } else if (element.Element === 'QO') {
      totals.quotas++;
    }
  });
  for (const [what, count] of Object.entries(totals) as [keyof typeof totals, number][]) {
    if (count > QSF_LIMITS[what])
      throw beyond(what.replace('blockElements', 'block elements'), count, QSF_LIMITS[what], where);
  }
}

function checkQuestion(payload: unknown, at: string): void {
  if (!isObject(payload)) return;
  for (const part of ['Choices', 'Answers'] as const) {
    const count = sizeOf(payload[part]);
    if (count > QSF_LIMITS.choices)
      throw beyond(`${part.toLowerCase()} in one question`, count, QSF_LIMITS.choices, `${at}.${part}`);
  }
  const columns = sizeOf(payload.AdditionalQuestions);
  if (columns > QSF_LIMITS.columns)
    throw beyond(
      'side-by-side columns in one question',
      columns,
      QSF_LIMITS.columns,
      `${at}.AdditionalQuestions`,
    );
}

/** The flow's entries, their depth and the embedded data fields they set, without recursion. */
function checkFlow(root: unknown, at: string): void {
  const stack: [unknown, number][] = [[root, 0]];
  let entries = 0;
  let embedded = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (!isObject(node)) continue;
    if (depth > QSF_LIMITS.flowDepth) throw beyond('flow levels', depth, QSF_LIMITS.flowDepth, at);
    embedded += Array.isArray(node.EmbeddedData) ? node.EmbeddedData.length : 0;
    const children = Array.isArray(node.Flow) ? node.Flow : [];
    entries += children.length;
    for (const child of children) stack.push([child, depth + 1]);
  }
  if (entries > QSF_LIMITS.flowEntries) throw beyond('flow entries', entries, QSF_LIMITS.flowEntries, at);
  if (embedded > QSF_LIMITS.embeddedFields)
    throw beyond('embedded data fields in the flow', embedded, QSF_LIMITS.embeddedFields, at);
}
