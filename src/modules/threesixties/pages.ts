/** The HTML of the 360's pages: the open link's form, the nomination page and the report. */
import { type Html, html, page } from '../../web/html.js';
import type { EvaluatorRow } from './evaluators.store.js';
import type { Score } from './report.js';
import type { SubjectReport } from './report.service.js';
import { RELATIONSHIPS } from './workflow.js';

const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

function field(name: string, label: string, type = 'text', value = ''): Html {
  return html`<div class="question"><label for="f-${name}">${label}</label>
<input id="f-${name}" name="${name}" type="${type}" value="${value}" required></div>`;
}

function relationshipField(choices: readonly string[], chosen = ''): Html {
  const options = choices.map(
    (name) => html`<option value="${name}"${name === chosen ? html` selected` : ''}>${name}</option>`,
  );
  return html`<div class="question"><label for="f-relationship">Your relationship</label>
<select id="f-relationship" name="relationship" required>${options}</select></div>`;
}

const alert = (message: string | undefined) =>
  message ? html`<div class="summary" role="alert"><p>${message}</p></div>` : '';

/** The form an unsolicited evaluator fills in before the evaluation starts. */
export function openLinkPage(a: {
  subjectName: string;
  relationships: readonly string[];
  action: string;
  problem?: string;
}) {
  const title = `Feedback on ${a.subjectName}`;
  return page({
    title,
    body: html`<h1>${title}</h1>${alert(a.problem)}
<p>Tell us who you are and how you work with ${a.subjectName}, then answer the questions.</p>
<form class="page" method="post" action="${a.action}">
${field('firstName', 'First name')}${field('lastName', 'Last name')}${field('email', 'E-mail address', 'email')}
${relationshipField(a.relationships)}
<div class="buttons"><button type="submit">Start the evaluation</button></div></form>`,
  });
}

/** The page where a subject nominates evaluators and sees who is nominated. */
export function nominationPage(a: {
  programName: string;
  relationships: readonly string[];
  nominated: EvaluatorRow[];
  action: string;
  message?: string;
  problem?: string;
}) {
  const rows = a.nominated.map(
    (e) =>
      html`<tr><td>${fullName(e)}</td><td>${e.email}</td><td>${e.relationship}</td><td>${e.status}</td></tr>`,
  );
  const choices = RELATIONSHIPS.filter((r) => a.relationships.includes(r));
  return page({
    title: `${a.programName}: your evaluators`,
    body: html`<h1>Choose who gives you feedback</h1>${alert(a.problem)}${a.message ? html`<p role="status">${a.message}</p>` : ''}
<table class="matrix"><caption>Nominated so far</caption><thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Relationship</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>
<form class="page" method="post" action="${a.action}">
${field('firstName', 'First name')}${field('lastName', 'Last name')}${field('email', 'E-mail address', 'email')}
${relationshipField(choices)}
<div class="buttons"><button type="submit">Nominate</button></div></form>`,
  });
}

const shownMean = (score: Score | undefined) =>
  score?.mean === null || score?.mean === undefined ? '–' : String(score.mean);

/** The report: one table per section, a column per reported group, self beside others. */
export function reportPage(report: SubjectReport) {
  const name = `${report.firstName} ${report.lastName}`.trim();
  const groups = report.groups.map((g) => g.name);
  const head = html`<thead><tr><th scope="col">Item</th>${groups.map((g) => html`<th scope="col">${g}</th>`)}<th scope="col">All others</th></tr></thead>`;
  const row = (label: string, r: { groups: Record<string, Score>; others: number | null }) =>
    html`<tr><th scope="row">${label}</th>${groups.map((g) => html`<td>${shownMean(r.groups[g])}</td>`)}<td>${r.others ?? '–'}</td></tr>`;
  const counts = report.groups.map(
    (g) =>
      html`<li>${g.name}: ${g.evaluations} evaluation(s)${g.name === g.relationships[0] ? '' : html` (${g.relationships.join(', ')})`}${g.shown ? '' : ' — too few to show'}</li>`,
  );
  return page({
    title: `360 report: ${name}`,
    body: html`<h1>360 report: ${name}</h1>
<p role="status">${report.ready ? 'All required evaluations are finished.' : 'Evaluations are still being collected.'}</p>
<p>Groups with fewer than ${report.anonymityThreshold} evaluations are combined into "Others" to protect the evaluators; a dash means too few answers to show.</p>
<ul>${counts}</ul>
<h2>Competencies</h2><table class="matrix">${head}<tbody>${report.competencies.map((c) => row(c.name, c))}</tbody></table>
<h2>Questions</h2><table class="matrix">${head}<tbody>${report.questions.map((q) => row(q.text, q))}</tbody></table>`,
  });
}
