// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
/**
 * One recipient's message: the distribution's message with the piped text filled for this recipient
 * (messages module), an opt-out link always (added when the message has none), the survey link added to
 * an invitation or reminder that has none, the open-tracking image, a text alternative and the subject.
 */
import { escapeHtml } from '../../escape-html.js';
import { messageText, type PipedRecipient, renderPipedText } from '../messages/messages.service.js';
import { decodeEntities, htmlToText } from './html-text.js';

export interface MailRecipient {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  extRef: string | null;
  language: string | null;
  embeddedData: Record<string, string>;
}

export interface MailLinks {
  /** Absent for a thank-you (no survey link to give). */
  surveyUrl?: string;
  optOutUrl: string;
  openUrl: string;
}

export interface MailContent {
  subject: string;
  html: string;
  text: string;
}

const SURVEY_LINK_FIELDS = ['${l://SurveyLink', '${l://SurveyURL}'];
const OPT_OUT_FIELDS = ['${l://OptOutLink', '${l://OptOutURL}'];

export function composeMail(
  message: { body: Record<string, string>; subject: string },
  recipient: MailRecipient,
  links: MailLinks,
): MailContent {
  const piped: PipedRecipient = {
    firstName: recipient.firstName,
    lastName: recipient.lastName,
    email: recipient.email,
    externalDataReference: recipient.extRef,
    embeddedData: recipient.embeddedData,
  };
  let template = messageText({ messages: message.body }, recipient.language);
  if (links.surveyUrl && !SURVEY_LINK_FIELDS.some((field) => template.includes(field)))
    template += '\n<p>${l://SurveyLink}</p>';
  if (!OPT_OUT_FIELDS.some((field) => template.includes(field)))
    template += '\n<p style="font-size:smaller">${l://OptOutLink?d=Unsubscribe}</p>';
  const html = renderPipedText(template, piped, links);
  const image = `<img src="${escapeHtml(links.openUrl)}" width="1" height="1" alt="">`;
  return {
    subject: plainPipedText(message.subject, piped),
    html: `${html}\n${image}`,
    text: htmlToText(html),
  };
}

/**
 * Piped text in a plain-text field (the subject): the renderer escapes what it puts into HTML, so the
 * template's own text is escaped first and the whole result decoded, which leaves every character as typed.
 */
function plainPipedText(template: string, recipient: PipedRecipient): string {
  const escaped = template.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return decodeEntities(renderPipedText(escaped, recipient, {}))
    .replace(/[\r\n]+/g, ' ')
    .trim();
}
