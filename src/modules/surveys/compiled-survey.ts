/**
 * A survey's definition read and compiled once per version, not once per request (decision 0012). The
 * key is (survey id, `surveys.version`), and the version moves in the same statement as every change of
 * the definition or the name (surveys.store.ts updateSurvey), so a node never serves an old version to a
 * request that read the new one, whichever node made the change: nothing needs to be told. Each node
 * keeps its own, bounded by count and by the definitions' length, least recently used out first.
 *
 * What the survey pages derive from a version alone is computed here too and kept in the version's object
 * (`pages`): it dies with the cache entry, so it has no invalidation rule of its own. The graphic ids each
 * question may show are found once per version, so a page needs no scan of its texts and reads the
 * organisation's graphics only when its questions name some; and the sanitized HTML of the author's texts
 * is kept as pages draw them (`AuthoredTexts`), for the texts whose HTML does not depend on the request
 * (web/rich-text.ts: a text with an image, or a Qualtrics graphic URL, is sanitized on every request).
 * What recording a response derives from a version alone lives there too: each question's value keys for
 * the quotas' conditions (`questionKeys`, filled on first use).
 */
import { fromJson } from '../../db/json.js';
import type { Queryable } from '../../deps.js';
import { resolvedQuestionsOf } from './definition/carry-forward.js';
import { graphicIdsInJson } from './definition/graphic-ids.js';
import { type QsfDocument, type QsfQuestion, quotasOf } from './definition/qsf.js';
import { QuestionKeys } from './definition/recorded-facts.js';
import { type ValueKey, valueKeyIndex } from './definition/value-keys.js';
import { findPublishedAt } from './survey-versions.store.js';
import * as store from './surveys.store.js';

/** Everything the definition gives, ready to use; shared by every request on this node: never change it. */
export interface CompiledSurvey {
  id: string;
  version: number;
  /** The survey's name at this version (the page title). */
  name: string;
  /**
   * Which publication this definition is (issue 15): the `surveys.version` it moved to, 0 before the
   * first. A session keeps it and runs that definition to its end.
   */
  definitionVersion: number;
  /** The published version (`survey_versions.id`) this definition is, null before the first. */
  publishedVersionId: string | null;
  definition: QsfDocument;
  questions: ReadonlyMap<string, QsfQuestion>;
  keys: ReadonlyMap<string, ValueKey>;
  /** The quotas' conditions; their counts live in survey_quotas. Empty: the survey has no quota. */
  quotas: readonly { id: string; condition: unknown }[];
  /** What the survey pages need of this version alone (web/page-media.ts, web/rich-text.ts). */
  pages: PageParts;
  /** Each question's value keys for quota conditions (recorded-facts.ts). */
  questionKeys: QuestionKeys;
}

export interface PageParts {
  /**
   * The Qualtrics graphic ids (`IM_…`) each question may show, by question id: those its definition names
   * (with its carried-forward choices and its translations), in graphic URLs or as its image's id. A question with piped text (`${…}`) may show
   * any text of the survey (loop fields, embedded data set in the flow), so it has every id the
   * definition names. No entry: the question names none.
   */
  graphicIds: ReadonlyMap<string, readonly string[]>;
  /** The pages' sanitized author texts: the one part that changes, filled as pages draw them. */
  texts: AuthoredTexts;
}

/**
 * What the pages make of the author's texts (web/rich-text.ts: their sanitized HTML), by variant (block,
 * inline), for values that depend on the text and the variant alone. Only a text the definition holds as
 * written is kept: a piped or composed text may differ for each respondent and would grow the memo
 * without bound, while the author's texts are the same for everyone and as many as the definition holds.
 */
export class AuthoredTexts {
  private authored: Set<string> | undefined;
  private readonly kept = new Map<string, Map<string, string>>();

  constructor(private readonly definition: QsfDocument) {}

  get(variant: string, text: string): string | undefined {
    return this.kept.get(variant)?.get(text);
  }

  set(variant: string, text: string, value: string): void {
    // Read on first use: the responses path, which draws no page, never pays for it.
    this.authored ??= stringsIn(this.definition);
    if (!this.authored.has(text)) return;
    const memo = this.kept.get(variant) ?? new Map<string, string>();
    this.kept.set(variant, memo.set(text, value));
  }
}

/** Every string value of a parsed JSON document. */
function stringsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

/** The page parts of a definition: its JSON text, the document parsed from it, its compiled questions. */
export function pagePartsOf(
  text: string,
  definition: QsfDocument,
  questions: ReadonlyMap<string, QsfQuestion>,
): PageParts {
  const all = graphicIdsInJson(text);
  const graphicIds = new Map<string, readonly string[]>();
  // Most surveys name no graphic: then no question is looked at.
  for (const [id, question] of all.length > 0 ? questions : []) {
    const json = JSON.stringify(question);
    const ids = json.includes('${') ? all : graphicIdsInJson(json);
    if (ids.length > 0) graphicIds.set(id, ids);
  }
  return { graphicIds, texts: new AuthoredTexts(definition) };
}

/** A least-recently-used map bounded by entry count and by the summed weight of its entries. */
export class BoundedLru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // re-inserted: the Map's order is the recency order
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, weight: number): void {
    const old = this.entries.get(key);
    if (old) this.weight -= old.weight;
    this.entries.delete(key);
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      if (oldest === key) break; // the newest stays even when it alone is over the bound
      this.entries.delete(oldest);
      this.weight -= entry.weight;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** About 100 surveys of the largest real files (95 KB), more of the usual ones; compiled, a few times that. */
const MAX_SURVEYS = 500;
const MAX_DEFINITION_CHARS = 10_000_000;
const cache = new BoundedLru<CompiledSurvey>(MAX_SURVEYS, MAX_DEFINITION_CHARS);

const keyOf = (surveyId: string, version: number) => `${surveyId}@${version}`;

/**
 * The compiled survey at the version a request has just read (from a row of `surveys`), or at the
 * `definitionVersion` a session started on; read and compiled on a miss. Undefined when the survey is
 * gone. A version older than the survey's now compiles the definition published then (issue 15: a
 * session runs the definition it started on to its end); without one (never published) the definition
 * is the survey's own, compiled at its current version.
 */
export async function compiledSurvey(
  db: Queryable,
  survey: { id: string; version: number },
): Promise<CompiledSurvey | undefined> {
  const cached = cache.get(keyOf(survey.id, survey.version));
  if (cached) return cached;
  const row = await store.findSurveyDefinition(db, survey.id);
  if (!row) return undefined;
  const wanted = Math.min(survey.version, row.version);
  const published = await findPublishedAt(db, row.id, wanted);
  const older = wanted < row.version && published ? published : undefined;
  const text = older?.definition ?? row.definition;
  const definition = fromJson<QsfDocument>(text);
  // Carried-forward choices as the value keys name them (`x1`: carry-forward.ts).
  const questions = new Map(resolvedQuestionsOf(definition).map((q) => [q.QuestionID, q]));
  const keys = valueKeyIndex(definition);
  const compiled: CompiledSurvey = {
    id: row.id,
    version: older ? wanted : row.version,
    name: row.name,
    definitionVersion: published?.engine_version ?? 0,
    publishedVersionId: published && published.version_number > 0 ? published.id : null,
    definition,
    questions,
    keys,
    quotas: quotasOf(definition).map((q) => ({ id: q.ID, condition: q.Logic })),
    pages: pagePartsOf(text, definition, questions),
    questionKeys: new QuestionKeys(questions),
  };
  cache.set(keyOf(row.id, compiled.version), compiled, text.length);
  return compiled;
}

/**
 * The compiled survey a session or a recorded response runs, for a survey row just read (`survey`): with
 * the `definitionVersion` of a session that started on an earlier publication, that publication's
 * definition (issue 15); else the current one. A session on the current definition (0 when it was never
 * published) takes the compiled survey of the version just read, which the cache holds under that
 * version. `current` is the survey's definition now (its name, say). Undefined when the survey is gone.
 */
export async function pinnedSurvey(
  db: Queryable,
  survey: { id: string; version: number },
  definitionVersion?: number | null,
): Promise<{ current: CompiledSurvey; pinned: CompiledSurvey } | undefined> {
  const current = await compiledSurvey(db, survey);
  if (!current) return undefined;
  if (
    definitionVersion === undefined ||
    definitionVersion === null ||
    definitionVersion === current.definitionVersion
  )
    return { current, pinned: current };
  const pinned = await compiledSurvey(db, { id: survey.id, version: definitionVersion });
  return { current, pinned: pinned ?? current };
}
