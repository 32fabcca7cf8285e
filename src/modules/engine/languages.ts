/**
 * The language a session runs in (issue 14 part 3): the real platform's language codes (`EN`, `EN-GB`,
 * `DE`, `ZH-S`, `TGL`, ...), what the browser asks for (`Accept-Language`) and the HTML `lang` of a page.
 * Pure functions: the engine calls them when a session starts (sessions.service.ts).
 */

/**
 * Codes of the real platform that are not BCP 47 tags, with the tags they answer (the first one is the
 * page's `lang`). Every other code is its own tag (`EN-GB` answers `en-GB`).
 */
const TAGS_OF: Record<string, string[]> = {
  'ZH-S': ['zh-Hans', 'zh-CN', 'zh-SG', 'zh'],
  'ZH-T': ['zh-Hant', 'zh-TW', 'zh-HK', 'zh-MO'],
  TGL: ['tl', 'fil'],
  ASM: ['as'],
  BEL: ['be'],
  HYE: ['hy'],
  ISL: ['is'],
  KAN: ['kn'],
  KAT: ['ka'],
  KAZ: ['kk'],
  MAL: ['ml'],
  MAR: ['mr'],
  ORI: ['or'],
  SIN: ['si'],
  SQI: ['sq'],
  TEL: ['te'],
  NO: ['no', 'nb', 'nn'],
  HE: ['he', 'iw'],
  'AZ-AZ': ['az-AZ', 'az'],
};

/** `en_gb`, `en-GB` and `EN-GB` are the same code. */
export const normaliseLanguageCode = (code: string): string => code.trim().toUpperCase().replaceAll('_', '-');

const tagsOf = (code: string): string[] => (TAGS_OF[code] ?? [code]).map((tag) => tag.toLowerCase());
const primaryOf = (tag: string): string => tag.split('-')[0] ?? tag;

/** One of the survey's languages, by its code in any case; undefined when the survey has no such language. */
export function findLanguage(languages: readonly string[], code: string | undefined): string | undefined {
  if (!code) return undefined;
  const wanted = normaliseLanguageCode(code);
  return languages.find((language) => normaliseLanguageCode(language) === wanted);
}

/** The tags of an `Accept-Language` header, most wanted first (`q=0` and `*` left out; ties keep their order). */
export function acceptedTags(header: string): string[] {
  const weighted = header.split(',').flatMap((part, index) => {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim().toLowerCase();
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (!/^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(tag) || !(weight > 0)) return [];
    return [{ tag, weight, index }];
  });
  return weighted.sort((a, b) => b.weight - a.weight || a.index - b.index).map((w) => w.tag);
}

/**
 * The survey language that best answers the browser's `Accept-Language`: for each tag in the order the
 * browser prefers, the language with that tag, else with the tag cut back subtag by subtag (`de-DE` → `DE`,
 * `zh-Hant-TW` → `ZH-T`, `en-US` → `EN`), else any language of the same primary language (`en-US` →
 * `EN-GB` when the survey has no plain English). Undefined when no tag matches.
 */
export function matchAcceptLanguage(
  languages: readonly string[],
  header: string | undefined,
): string | undefined {
  if (!header) return undefined;
  for (const tag of acceptedTags(header)) {
    for (let cut = tag; cut !== ''; cut = cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : '') {
      const exact = languages.find((language) => tagsOf(language).includes(cut));
      if (exact) return exact;
    }
    const sameLanguage = languages.find((language) =>
      tagsOf(language).some((own) => primaryOf(own) === primaryOf(tag)),
    );
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}

export interface LanguageRequest {
  /** Asked for by code: the `Q_Language` URL parameter, or the sessions API's `language`. */
  requested?: string | undefined;
  /** The browser's `Accept-Language` header. */
  acceptLanguage?: string | null | undefined;
}

/**
 * A new session's language: the code asked for when the survey has it (an unknown code: the base
 * language), else the best match of the browser's languages, else the base language.
 */
export function chooseLanguage(
  survey: { language: string; languages: readonly string[] },
  request: LanguageRequest,
): string {
  if (request.requested) return findLanguage(survey.languages, request.requested) ?? survey.language;
  return matchAcceptLanguage(survey.languages, request.acceptLanguage ?? undefined) ?? survey.language;
}

/** The HTML `lang` of a page in this language (`EN-GB` → `en-GB`, `ZH-S` → `zh-Hans`); `en` when unknown. */
export function htmlLang(code: string | undefined): string {
  const normalised = normaliseLanguageCode(code ?? '');
  const alias = TAGS_OF[normalised]?.[0];
  if (alias) return alias;
  const [primary = '', ...rest] = normalised.replace(/[^A-Z0-9-]/g, '').split('-');
  const tag = [primary.toLowerCase(), ...rest].filter(Boolean).join('-');
  return /^[a-z]{2,3}(-[A-Z0-9]{1,8})*$/.test(tag) ? tag : 'en';
}
