/**
 * Text entry validation (issue 14 item 2): what a QSF question's `Validation.Settings` ask of typed text,
 * and the message a page shows when the text does not meet it. Numbers (`ValidNumber` with bounds) are
 * the question model's `validation.numeric`; this file has the other content types and lengths:
 * - `Type: ContentType` with `ContentType` `ValidEmail`, `ValidDate` (`DateFormat`: `mm/dd/yyyy`,
 *   `dd/mm/yyyy` or `yyyy/mm/dd`), `ValidPhone` (`ValidPhoneType` `ValidUSPhone`, else international),
 *   `ValidZip` (`ValidZipType` `ValidUSZip`, `ValidCAPostal`, `ValidUKPostal`, else any postal code);
 * - `Type: MinChar | MaxChar | CharRange` with `MinChars` / `MaxChars`.
 * Real files carry `ValidDateType`, `ValidPhoneType` and `ValidZipType` beside every content type
 * (psych251-porter.qsf); the date's format key is not in any file we have (`DateFormat` is assumed).
 */
import { type Json, num, str } from './qsf-reading.js';

export type DateFormat = 'mm/dd/yyyy' | 'dd/mm/yyyy' | 'yyyy/mm/dd';

export type TextValidation =
  | { kind: 'email' }
  | { kind: 'date'; format: DateFormat }
  | { kind: 'phone'; region: 'us' | 'international' }
  | { kind: 'postal'; region: 'us' | 'ca' | 'uk' | 'any' }
  | { kind: 'length'; min?: number; max?: number };

const DATE_FORMATS: readonly DateFormat[] = ['mm/dd/yyyy', 'dd/mm/yyyy', 'yyyy/mm/dd'];

/** The validation a question's settings ask for, if any besides numbers. */
export function toTextValidation(settings: Json): TextValidation | undefined {
  const type = str(settings?.Type);
  if (type === 'MinChar' || type === 'MaxChar' || type === 'CharRange') {
    const min = type === 'MaxChar' ? Number.NaN : num(settings.MinChars, Number.NaN);
    const max = type === 'MinChar' ? Number.NaN : num(settings.MaxChars, Number.NaN);
    return { kind: 'length', ...(Number.isNaN(min) ? {} : { min }), ...(Number.isNaN(max) ? {} : { max }) };
  }
  if (type !== 'ContentType') return undefined;
  switch (str(settings.ContentType)) {
    case 'ValidEmail':
      return { kind: 'email' };
    case 'ValidDate': {
      const format = str(settings.DateFormat).toLowerCase() as DateFormat;
      return { kind: 'date', format: DATE_FORMATS.includes(format) ? format : 'mm/dd/yyyy' };
    }
    case 'ValidPhone':
      return {
        kind: 'phone',
        region: str(settings.ValidPhoneType) === 'ValidUSPhone' ? 'us' : 'international',
      };
    case 'ValidZip': {
      const zip = str(settings.ValidZipType);
      const region =
        zip === 'ValidUSZip' ? 'us' : zip === 'ValidCAPostal' ? 'ca' : zip === 'ValidUKPostal' ? 'uk' : 'any';
      return { kind: 'postal', region };
    }
    default:
      return undefined;
  }
}

// A practical address check (one @, a dot in the domain, no spaces), as the platform's own is.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const POSTAL: Record<'us' | 'ca' | 'uk' | 'any', RegExp> = {
  us: /^\d{5}(-\d{4})?$/,
  ca: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
  uk: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
  any: /^[A-Z\d][A-Z\d -]{1,8}[A-Z\d]$/i,
};

/** The page's message when `value` does not meet `rule`; undefined when it does. */
export function textProblem(rule: TextValidation, value: string): string | undefined {
  const text = value.trim();
  switch (rule.kind) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'Please enter a valid email address.';
    case 'date':
      return isDate(text, rule.format) ? undefined : `Please enter a valid date (${rule.format}).`;
    case 'phone':
      return isPhone(text, rule.region) ? undefined : 'Please enter a valid phone number.';
    case 'postal':
      return POSTAL[rule.region].test(text) ? undefined : 'Please enter a valid postal code.';
    case 'length':
      return lengthProblem(rule, [...value].length);
  }
}

function lengthProblem(rule: { min?: number; max?: number }, length: number): string | undefined {
  if (rule.min !== undefined && length < rule.min) return `Please enter at least ${rule.min} characters.`;
  if (rule.max !== undefined && length > rule.max) return `Please enter no more than ${rule.max} characters.`;
  return undefined;
}

/** A real calendar date in the format, `/`, `-` or `.` between its parts. */
export function isDate(text: string, format: DateFormat): boolean {
  const parts = text.split(/[/.-]/);
  if (parts.length !== 3 || !parts.every((p) => /^\d+$/.test(p))) return false;
  const order = format.split('/');
  const at = (unit: string) => Number(parts[order.indexOf(unit)]);
  const year = at('yyyy');
  const month = at('mm');
  const day = at('dd');
  if ((parts[order.indexOf('yyyy')] ?? '').length !== 4 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * US: ten digits (a leading 1 allowed), area code and exchange not starting with 0 or 1, with the usual
 * separators. International: a `+` or digits, 7 to 15 digits in all (E.164), separators allowed.
 */
export function isPhone(text: string, region: 'us' | 'international'): boolean {
  if (!/^\+?[\d\s().-]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, '');
  if (region === 'international') return digits.length >= 7 && digits.length <= 15;
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (text.startsWith('+') && !text.startsWith('+1')) return false;
  return national.length === 10 && /^[2-9]\d{2}[2-9]/.test(national);
}
