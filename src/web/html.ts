/**
 * HTML building blocks for the server-rendered pages: escaping, the survey author's markup through an
 * allow-list, and the page frame. Everything a page loads comes from Fieldwork itself
 * (assets.ts); the Content-Security-Policy header of web.routes.ts makes sure of it.
 */

import { escapeHtml } from '../escape-html.js';
import { htmlLang } from '../modules/engine/languages.js';
import { type RichOptions, sanitizeRichText } from './rich-text.js';

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

/**
 * The survey author's question and choice texts, which are HTML in QSF, through the allow-list of
 * rich-text.ts (formatting, tables, links, Fieldwork's images; nothing that runs). `inline` keeps to
 * phrasing content, for places that take a line of text (labels, table headers); `media` says which
 * images are Fieldwork's own, and where the survey version keeps the HTML of its texts (decision 0012).
 */
export function rich(text: string, options: RichOptions = {}): Html {
  return raw(sanitizeRichText(text, options));
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
  const lang = htmlLang(frame.language);
  return `<!doctype html>${
    html`<html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title}</title>${frame.head}
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="stylesheet" href="/jfe/static/fieldwork.css">
<script src="/jfe/static/fieldwork.js" defer></script>
</head><body><main id="main" class="survey">${frame.body}</main></body></html>`.html
  }`;
}
