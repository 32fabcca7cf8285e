/**
 * Meta info questions (`Meta`/`Browser`): nothing is shown; the page records the browser, its version and
 * the operating system read from the request's User-Agent, and the screen resolution the page's script
 * posts (`_fw_resolution`, `1920x1080`), under `QID15_BROWSER`, `_VERSION`, `_OS`, `_RESOLUTION`.
 */
import type { FormFields } from './answers.js';

export interface BrowserFacts {
  browser: string;
  version: string;
  os: string;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari".
const BROWSERS: [string, RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
];

const SYSTEMS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/Windows NT 10/, () => 'Windows NT 10.0'],
  [/Windows NT ([\d.]+)/, (m) => `Windows NT ${m[1]}`],
  [/Android ([\d.]+)/, (m) => `Android ${m[1]}`],
  [/(?:iPhone|iPad|iPod).*OS ([\d_]+)/, (m) => `iPhone ${String(m[1]).replace(/_/g, '.')}`],
  [/Mac OS X ([\d_.]+)/, (m) => `Macintosh ${String(m[1]).replace(/_/g, '.')}`],
  [/CrOS/, () => 'Chrome OS'],
  [/Linux/, () => 'Linux'],
];

/** Browser, version and system from a User-Agent; empty strings for what it does not say. */
export function browserFacts(userAgent: string): BrowserFacts {
  let browser = '';
  let version = '';
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = name;
      version = match[1] ?? '';
      break;
    }
  }
  // Headless Chrome names itself so; it is still Chrome.
  if (!browser && /HeadlessChrome\/([\d.]+)/.test(userAgent)) {
    browser = 'Chrome';
    version = /HeadlessChrome\/([\d.]+)/.exec(userAgent)?.[1] ?? '';
  }
  const system = SYSTEMS.map(([pattern, name]) => {
    const match = pattern.exec(userAgent);
    return match ? name(match) : '';
  }).find((name) => name !== '');
  return { browser, version, os: system ?? '' };
}

/** `1920x1080`, or nothing when the page's script did not say (or said something else). */
function resolutionOf(form: FormFields): string {
  const value = form._fw_resolution?.[0] ?? '';
  return /^\d{1,5}x\d{1,5}$/.test(value) ? value : '';
}

/** The answers of the page's meta info questions. */
export function metaAnswers(
  questions: { id: string; kind: string }[],
  form: FormFields,
  userAgent: string | null,
): Record<string, Record<string, string[]>> {
  const facts = browserFacts(userAgent ?? '');
  const resolution = resolutionOf(form);
  const out: Record<string, Record<string, string[]>> = {};
  for (const q of questions.filter((x) => x.kind === 'meta')) {
    const fields: Record<string, string[]> = {};
    const put = (suffix: string, value: string) => {
      if (value) fields[`${q.id}_${suffix}`] = [value.slice(0, 200)];
    };
    put('BROWSER', facts.browser);
    put('VERSION', facts.version);
    put('OS', facts.os);
    put('RESOLUTION', resolution);
    out[q.id] = fields;
  }
  return out;
}
