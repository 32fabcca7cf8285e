/**
 * HTML building blocks for the server-rendered pages: escaping, the survey author's markup cut down to
 * a few harmless tags, and the page frame. Everything a page loads comes from Fieldwork itself
 * (assets.ts); the Content-Security-Policy header of web.routes.ts makes sure of it.
 */

import { escapeHtml } from '../escape-html.js';

export type Html = { readonly html: string };

/** Trusted markup, built here. */
export const raw = (html: string): Html => ({ html });

/** A tagged template that escapes every interpolated string and keeps Html (and arrays of it) as is. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return { html: out };
}

function render(value: unknown): string {
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && 'html' in value) return String((value as Html).html);
  return escapeHtml(String(value));
}

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'br',
  'p',
  'div',
  'span',
  'ul',
  'ol',
  'li',
  'sup',
  'sub',
  'h2',
  'h3',
  'h4',
]);
const BLOCK_TAGS = new Set(['p', 'div', 'ul', 'ol', 'li', 'h2', 'h3', 'h4']);

/**
 * The survey author's question and choice texts, which are HTML in QSF: a few formatting tags are kept
 * (without any attribute), every other tag is dropped (scripts and styles with their content), and
 * text is escaped. `inline` also turns block tags into line breaks, for places that take phrasing
 * content only (labels, legends, options).
 */
export function rich(text: string, options: { inline?: boolean } = {}): Html {
  const cleaned = text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  const out = cleaned.replace(
    /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|[<>"']|&(?!#?[a-zA-Z0-9]{1,32};)/g,
    (match, slash: string | undefined, tag: string | undefined) => {
      if (!tag) return escapeHtml(match);
      const name = tag.toLowerCase();
      if (!ALLOWED_TAGS.has(name)) return '';
      if (options.inline && BLOCK_TAGS.has(name)) return slash || name === 'li' ? ' ' : '';
      if (name === 'br') return slash ? '' : '<br>';
      return `<${slash ?? ''}${name}>`;
    },
  );
  return raw(out);
}

/** Markup to plain text (titles, option texts, accessible names). */
export function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Frame {
  title: string;
  language?: string;
  /** More of the head (the end page's refresh). */
  head?: Html;
  body: Html;
}

/** The whole document: language, a viewport for phones, our own stylesheet and script only. */
export function page(frame: Frame): string {
  const lang =
    (frame.language ?? 'en')
      .toLowerCase()
      .replace('_', '-')
      .replace(/[^a-z-]/g, '') || 'en';
  return `<!doctype html>${
    html`<html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title}</title>${frame.head}
<link rel="stylesheet" href="/jfe/static/fieldwork.css">
<script src="/jfe/static/fieldwork.js" defer></script>
</head><body><main id="main" class="survey">${frame.body}</main></body></html>`.html
  }`;
}
