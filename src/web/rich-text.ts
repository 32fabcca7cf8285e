/**
 * The survey author's question, choice and message texts (HTML in QSF), made safe for the survey pages by
 * sanitize-html's allow-list: formatting, paragraphs, lists, tables, links and images are kept, nothing
 * that runs is (no script, no `on*` attribute, no `javascript:` URL). The pages load nothing from other
 * sites (engine.routes.ts's Content-Security-Policy), so an image is shown when Fieldwork serves it (a
 * graphic, or a raster `data:` image) and is a link otherwise; audio, video and embedded frames, which
 * Fieldwork does not store, are links to the recording. Inline styles would be refused by that policy
 * too: the few that carry meaning (alignment, weight, slant, underline, size) become classes.
 *
 * The HTML of a text depends on the request only through its images and Qualtrics graphic URLs (the
 * origin, the organisation's graphics). Every other text with markup is sanitized once per survey version:
 * `media.texts` (compiled-survey.ts AuthoredTexts) keeps it, and a text that turned out to depend on
 * the request is not kept (decision 0012).
 */
import sanitizeHtml, { type Attributes, type IOptions, type Tag } from 'sanitize-html';
import { qualtricsGraphicId } from './graphic-links.js';

export interface TextMedia {
  /** The scheme and host the respondent reached: an image there is Fieldwork's own. */
  origin?: string;
  /** The organisation's graphics that a Qualtrics graphic URL in the text names: `IM_…` → their URL here. */
  graphics?: ReadonlyMap<string, string>;
  /** Where the survey version keeps the HTML of its texts that depend on nothing else. */
  texts?: TextMemo;
}

/** compiled-survey.ts AuthoredTexts: keeps only the author's texts, for as long as their version. */
export interface TextMemo {
  get(variant: string, text: string): string | undefined;
  set(variant: string, text: string, html: string): void;
}

/** The request's media, and whether this text's HTML used them (then it is not kept). */
interface MediaUse {
  media: TextMedia;
  used: boolean;
}

export interface RichOptions {
  /** Phrasing content only (labels, table headers): blocks become `span.fw-block`, tables lines of text. */
  inline?: boolean;
  media?: TextMedia;
}

const PHRASING = [
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'sub',
  'sup',
  'small',
  'mark',
  'br',
  'span',
  'img',
];
const BLOCKS = ['p', 'div', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'hr'];
const TABLES = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col'];
/** Old or out-of-place tags read as the nearest allowed one. */
const RENAMED: Record<string, string> = {
  strike: 's',
  font: 'span',
  center: 'div',
  h1: 'h2',
  h5: 'h4',
  h6: 'h4',
};

/** Raster images only: an SVG may carry script when opened on its own. */
const DATA_IMAGE = /^data:image\/(png|gif|jpeg|webp);base64,[a-z0-9+/=\s]+$/i;
const MEDIA_LABELS: Record<string, string> = { audio: 'Audio', video: 'Video', iframe: 'Embedded content' };

export function sanitizeRichText(text: string, options: RichOptions = {}): string {
  // Plain words (most choices) need no parser: only `>` is escaped, as the sanitizer would.
  if (!/[<&]/.test(text)) return text.replaceAll('>', '&gt;');
  const variant = options.inline ? 'inline' : 'block';
  const memo = options.media?.texts;
  const kept = memo?.get(variant, text);
  if (kept !== undefined) return kept;
  const use: MediaUse = { media: options.media ?? {}, used: false };
  const html = sanitize(text, options.inline === true, use);
  if (!use.used) memo?.set(variant, text, html);
  return html;
}

function sanitize(text: string, inline: boolean, use: MediaUse): string {
  // The last audio or video element opened: names the links its <source> children become.
  let mediaLabel = 'Media';
  const mediaElement = (tag: string, attribs: Attributes): Tag => {
    mediaLabel = MEDIA_LABELS[tag] ?? 'Media';
    // Without a src of its own, each <source> child is a link and the element goes.
    return attribs.src ? link(resolve(attribs.src, use), mediaLabel) : unwrap();
  };
  const transformTags = {
    a: (_tag: string, attribs: Attributes) => link(resolve(attribs.href, use), undefined, attribs.target),
    img: (_tag: string, attribs: Attributes) => image(attribs, use),
    audio: mediaElement,
    video: mediaElement,
    source: (_tag: string, attribs: Attributes) =>
      link(resolve(attribs.src, use), labelOf(attribs.type, mediaLabel)),
    iframe: (tag: string, attribs: Attributes) => link(resolve(attribs.src, use), MEDIA_LABELS[tag]),
    '*': (tag: string, attribs: Attributes) => styled(tag, attribs, inline),
  };
  return sanitizeHtml(text, { ...SETTINGS, transformTags });
}

/**
 * A tag that goes while its text stays: a span marked for `exclusiveFilter`. Renaming it to a tag that is
 * not allowed would leave sanitize-html 2.17's map of renamed closing tags stale for the next tag at
 * that depth.
 */
const UNWRAP = 'data-fw-unwrap';
const unwrap = (): Tag => ({ tagName: 'span', attribs: { [UNWRAP]: '' } });

const SETTINGS: IOptions = {
  allowedTags: [...PHRASING, ...BLOCKS, ...TABLES],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start'],
    // Allowed so that it lasts until exclusiveFilter reads it; that filter drops the tag holding it.
    span: [UNWRAP],
    '*': ['class', 'lang', 'dir'],
  },
  allowedClasses: { '*': ['fw-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  // `style` is read into classes by `styled` and never kept: the sanitizer's CSS parser has nothing to do.
  parseStyleAttributes: false,
  // Their text is code or form state, never words for the respondent.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'object', 'embed', 'template'],
  exclusiveFilter: (frame) => (UNWRAP in frame.attribs ? 'excludeTag' : false),
};

/**
 * A URL as the page should use it: a Qualtrics graphic URL naming a graphic of the organisation becomes
 * that graphic's Fieldwork URL; anything else as written.
 */
function resolve(url: string | undefined, use: MediaUse): string | undefined {
  if (!url) return undefined;
  const id = qualtricsGraphicId(url);
  if (!id) return url;
  use.used = true;
  return use.media.graphics?.get(id) ?? url;
}

/** Shown in the page: served by Fieldwork (the page's origin, or a path there) or a raster `data:` image. */
function isEmbeddable(url: string, use: MediaUse): boolean {
  if (DATA_IMAGE.test(url)) return true;
  if (!url.startsWith('/') && !isWebUrl(url)) return false;
  use.used = true;
  // Resolved as the browser will: `//host/…` and `/\host/…` are other sites.
  const here = use.media.origin ?? 'http://fieldwork.invalid';
  try {
    return new URL(url, here).origin === new URL(here).origin;
  } catch {
    return false;
  }
}

const isWebUrl = (url: string) => /^(https?:\/\/|mailto:)/i.test(url.trim());

/** A link that opens beside the survey; when the URL is not a web or mail address, the bare content. */
function link(href: string | undefined, text?: string, target?: string): Tag {
  if (!href || !isWebUrl(href)) return unwrap();
  const opens = target && /^_(blank|self|parent|top)$/.test(target) ? target : '_blank';
  const tag: Tag = { tagName: 'a', attribs: { href, target: opens, rel: 'noopener' } };
  return text === undefined ? tag : { ...tag, text };
}

function image(attribs: Attributes, use: MediaUse): Tag {
  const src = resolve(attribs.src, use);
  const alt = attribs.alt?.trim() ?? '';
  if (!src) return unwrap();
  if (!isEmbeddable(src, use)) {
    if (isWebUrl(src)) return link(src, alt ? `Image: ${alt}` : 'Image');
    // Its text alternative stands in (a transform's text cannot go with an unwrapped tag).
    return alt ? { tagName: 'span', attribs: {}, text: alt } : unwrap();
  }
  // An image without a text alternative is taken as decoration (screen readers pass over it).
  const kept: Attributes = { src, alt };
  for (const size of ['width', 'height']) {
    const value = attribs[size];
    if (value && /^\d{1,4}$/.test(value)) kept[size] = value;
  }
  return { tagName: 'img', attribs: kept };
}

const labelOf = (type: string | undefined, fallback: string) =>
  type?.startsWith('audio/') ? 'Audio' : type?.startsWith('video/') ? 'Video' : fallback;

const INLINE_BLOCKS = new Set([...BLOCKS, 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr']);
const INLINE_CELLS = new Set(['th', 'td']);
const INLINE_DROPPED = new Set(['hr', 'colgroup', 'col']);
/** Attributes that are small whole numbers, or nothing. */
const COUNTS = ['colspan', 'rowspan', 'span', 'start'];

/** Every kept tag: renamed, its meaningful styles as classes, and flattened to phrasing when inline. */
function styled(tag: string, attribs: Attributes, inline: boolean): Tag {
  const name = RENAMED[tag] ?? tag;
  if (inline && INLINE_DROPPED.has(name)) return unwrap();
  const align = attribs.align ?? (tag === 'center' ? 'center' : '');
  const classes = [...styleClasses(attribs.style ?? ''), ...alignClass(align)];
  const { style: _style, align: _align, class: _class, ...kept } = attribs;
  for (const count of COUNTS) if (count in kept && !/^\d{1,3}$/.test(kept[count] ?? '')) delete kept[count];
  const flat = inline ? flattened(name) : undefined;
  if (flat) classes.push(flat);
  if (classes.length > 0) kept.class = [...new Set(classes)].join(' ');
  return { tagName: flat ? 'span' : name, attribs: kept };
}

/** The class of a block or a table cell among phrasing content. */
function flattened(name: string): string | undefined {
  if (INLINE_BLOCKS.has(name)) return 'fw-block';
  return INLINE_CELLS.has(name) ? 'fw-cell' : undefined;
}

const alignClass = (align: string) =>
  /^(left|center|right|justify)$/i.test(align.trim()) ? [`fw-align-${align.trim().toLowerCase()}`] : [];

/** The classes of the style declarations that carry meaning; colours and fonts are the page's. */
function styleClasses(style: string): string[] {
  const classes: string[] = [];
  for (const declaration of style.split(';')) {
    const [property = '', value = ''] = declaration.split(':').map((part) => part.trim().toLowerCase());
    if (property === 'text-align') classes.push(...alignClass(value));
    else if (property === 'font-weight' && /^(bold|bolder|[6-9]00)$/.test(value)) classes.push('fw-bold');
    else if (property === 'font-style' && value === 'italic') classes.push('fw-italic');
    else if (property.startsWith('text-decoration') && value.includes('underline'))
      classes.push('fw-underline');
    else if (property.startsWith('text-decoration') && value.includes('line-through'))
      classes.push('fw-strike');
    else if (property === 'font-size') classes.push(...sizeClass(value));
  }
  return classes;
}

/** Bigger or smaller than the page's text, by about a fifth or more; the exact size is the page's. */
function sizeClass(value: string): string[] {
  if (/^(larger|large|x-large|xx-large|xxx-large)$/.test(value)) return ['fw-larger'];
  if (/^(smaller|small|x-small|xx-small)$/.test(value)) return ['fw-smaller'];
  const match = /^([\d.]+)(px|pt|em|rem|%)$/.exec(value);
  if (!match) return [];
  const base: Record<string, number> = { px: 16, pt: 12, em: 1, rem: 1, '%': 100 };
  const ratio = Number(match[1]) / (base[match[2] as string] ?? 1);
  return ratio >= 1.2 ? ['fw-larger'] : ratio <= 0.8 ? ['fw-smaller'] : [];
}
