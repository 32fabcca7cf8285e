/**
 * Piped text in library messages: `${m://FirstName}`, `${e://Field/name}`, `${l://SurveyLink?d=text}` ...
 * filled per recipient when a message is sent. The message HTML itself is passed through as written (it is
 * sanitised where it is rendered); only the values this module puts into it are escaped.
 */

import { escapeHtml } from '../../escape-html.js';
import { findPipes } from '../surveys/definition/pipes.js';

export interface PipedRecipient {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  externalDataReference: string | null;
  embeddedData: Record<string, string>;
}

export interface PipedLinks {
  surveyUrl?: string;
  optOutUrl?: string;
}

// The platform's own default link texts (its message editor inserts exactly these).
const DEFAULT_SURVEY_LINK_TEXT = 'Take the Survey';
const DEFAULT_OPT_OUT_LINK_TEXT = 'Click here to unsubscribe';

const EMBEDDED_FIELD = 'e://Field/';

/** Fills every ${…} of a message for one recipient. HTML-escapes values put into HTML. */
export function renderPipedText(template: string, recipient: PipedRecipient, links: PipedLinks): string {
  let out = '';
  let last = 0;
  for (const field of findPipes(template)) {
    out += template.slice(last, field.start) + (resolveField(field.body, recipient, links) ?? '');
    last = field.end;
  }
  return out + template.slice(last);
}

/** The piped fields of a template that renderPipedText does not know (e.g. "${q://QID1/ChoiceGroup/SelectedChoices}") — the message's warnings. */
export function unknownPipedFields(template: string): string[] {
  const probe: PipedRecipient = {
    firstName: null,
    lastName: null,
    email: null,
    externalDataReference: null,
    embeddedData: {},
  };
  const unknown = new Set<string>();
  for (const field of findPipes(template)) {
    if (resolveField(field.body, probe, {}) === undefined)
      unknown.add(template.slice(field.start, field.end));
  }
  return [...unknown];
}

/** The HTML for one field's body, or undefined when the field is not one we know. */
function resolveField(body: string, recipient: PipedRecipient, links: PipedLinks): string | undefined {
  switch (body) {
    case 'm://FirstName':
      return escapeHtml(recipient.firstName ?? '');
    case 'm://LastName':
      return escapeHtml(recipient.lastName ?? '');
    case 'm://Email':
      return escapeHtml(recipient.email ?? '');
    case 'm://ExternalDataReference':
      return escapeHtml(recipient.externalDataReference ?? '');
    case 'l://SurveyURL':
      return escapeHtml(safeUrl(links.surveyUrl) ?? '');
    case 'l://OptOutURL':
      return escapeHtml(safeUrl(links.optOutUrl) ?? '');
  }
  if (body.startsWith(EMBEDDED_FIELD)) return embeddedValue(body.slice(EMBEDDED_FIELD.length), recipient);
  const link = parseLinkField(body);
  if (link === undefined) return undefined;
  const url = safeUrl(link.kind === 'survey' ? links.surveyUrl : links.optOutUrl);
  if (url === undefined) return '';
  return `<a href="${escapeHtml(url)}">${escapeHtml(link.text)}</a>`;
}

/** `${e://Field/name}`; the platform writes spaces in field names as %20, so both spellings find the value. */
function embeddedValue(name: string, recipient: PipedRecipient): string | undefined {
  if (name === '' || name.includes('{') || name.includes('}')) return undefined;
  const data = recipient.embeddedData;
  if (Object.hasOwn(data, name)) return escapeHtml(data[name] ?? '');
  const decoded = decodeLenient(name);
  if (Object.hasOwn(data, decoded)) return escapeHtml(data[decoded] ?? '');
  return '';
}

/** `l://SurveyLink`, `l://SurveyLink?d=text`, and the same for OptOutLink. */
function parseLinkField(body: string): { kind: 'survey' | 'optOut'; text: string } | undefined {
  const query = body.indexOf('?');
  const name = query === -1 ? body : body.slice(0, query);
  const kind = name === 'l://SurveyLink' ? 'survey' : name === 'l://OptOutLink' ? 'optOut' : undefined;
  if (kind === undefined) return undefined;
  const fallback = kind === 'survey' ? DEFAULT_SURVEY_LINK_TEXT : DEFAULT_OPT_OUT_LINK_TEXT;
  if (query === -1) return { kind, text: fallback };
  const params = body.slice(query + 1);
  // Only `d` is defined; its text may itself hold `&` or `=` ("Q&A"), so everything after `d=` is the text.
  if (!params.startsWith('d=')) return undefined;
  const text = decodeLenient(params.slice(2));
  return { kind, text: text === '' ? fallback : text };
}

/** URL-decoded when it is valid percent-encoding, as written otherwise ("100% sure" stays as it is). */
function decodeLenient(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Only absolute http(s) links go into a message; anything else (javascript:, a bare path) renders as nothing. */
function safeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
