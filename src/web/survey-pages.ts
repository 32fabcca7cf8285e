/**
 * Whole pages of the survey-taking engine: a survey page (form), the end of the survey, the closed
 * page and the error page.
 */
import type { PageView } from '../modules/engine/page-view.js';
import { type Html, html, page, plain, rich } from './html.js';
import { questionHtml } from './question-views.js';
import type { TextMedia } from './rich-text.js';

/** `media`: which images in the texts Fieldwork serves (rich-text.ts); without it, only paths here. */
export function surveyPage(view: PageView, media: TextMedia = {}): string {
  const errors = view.questions.filter((q) => q.error);
  const errorSummary =
    errors.length > 0
      ? html`<div class="summary" role="alert" tabindex="-1"><h2>Please check your answers</h2><ul>${errors.map(
          (q) => html`<li><a href="#q-${q.question.id}">${q.error}</a></li>`,
        )}</ul></div>`
      : '';
  const requestedSummary =
    view.askRequested && errors.length === 0
      ? html`<div class="summary requested" role="alert" tabindex="-1"><h2>Some questions are not answered</h2>
<p>You can answer them now, or go on without answering.</p>
<button type="submit" name="_fw_action" value="continue" class="secondary">Continue without answering</button></div>`
      : '';
  const timing = view.questions.some((q) => q.question.kind === 'timing')
    ? html`<input type="hidden" name="_fw_first_click" value="0"><input type="hidden" name="_fw_last_click" value="0"><input type="hidden" name="_fw_click_count" value="0">`
    : '';
  const kinds = new Set(view.questions.map((q) => q.question.kind));
  // Meta info: the screen's resolution, which only the browser knows (the page's script fills it in).
  const meta = kinds.has('meta') ? html`<input type="hidden" name="_fw_resolution" value="">` : '';
  const enctype = kinds.has('file') ? html` enctype="multipart/form-data"` : '';
  const back = view.canGoBack
    ? html`<button type="submit" name="_fw_action" value="back" class="secondary">${view.backLabel}</button>`
    : '';
  const body = html`<h1>${view.title}</h1>${progress(view.progress)}
<form class="page" method="post" action="/jfe/form/${view.surveyId}"${enctype} novalidate>
${errorSummary}
<input type="hidden" name="_fw_session" value="${view.sessionId}">
<input type="hidden" name="_fw_page" value="${view.pageKey}">${timing}${meta}
${requestedSummary}
${view.questions.map((question) => questionHtml(question, media))}
<div class="buttons"><button type="submit" name="_fw_action" value="next">${view.nextLabel}</button>${back}</div>
</form>`;
  return page({ title: titleOf(view.title, errors.length > 0), language: view.language, body });
}

const titleOf = (title: string, hasErrors: boolean) => (hasErrors ? `Error: ${title}` : title);

function progress(value: number | undefined): Html {
  if (value === undefined) return html``;
  return html`<div class="progress"><label for="fw-progress">Progress</label><progress id="fw-progress" max="100" value="${value}">${value}%</progress><span aria-hidden="true">${value}%</span></div>`;
}

/**
 * The end of the survey: its message, or the page that sends the browser on to the ending's redirect URL
 * once the response is recorded (a refresh, not a 303 answer to the form: the pages' form-action policy
 * would stop a form's redirect to another site), with a link for browsers that do not follow it.
 */
export function endPage(
  title: string,
  message: string,
  language?: string,
  redirect?: string,
  media: TextMedia = {},
): string {
  if (redirect) {
    return page({
      title,
      language,
      head: html`<meta http-equiv="refresh" content="0; url=${redirect}">`,
      body: html`<h1>${title}</h1><div class="end" role="status"><p>Your response has been recorded.</p><p><a href="${redirect}">Continue</a></p></div>`,
    });
  }
  return page({
    title,
    language,
    body: html`<h1>${title}</h1><div class="end" role="status">${rich(message, { media })}</div>`,
  });
}

/** The page of a survey that does not take responses now, and of anything that went wrong. */
export function messagePage(heading: string, message: string): string {
  return page({ title: plain(heading), body: html`<h1>${heading}</h1><p>${message}</p>` });
}
