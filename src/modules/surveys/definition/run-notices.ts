/**
 * What the survey engine does not run as written, element by element (issue 13 item 7): flow elements it
 * passes over, options it does not apply, JavaScript, piped text it cannot fill. The import answer lists
 * them in `meta.notice`, so nothing is degraded silently. Unsupported question types are named by the
 * import itself (question-types.ts). Each notice is one sentence: the element's id, what happens instead.
 */

import { unknownPipes } from './pipes.js';
import { flowOf, optionsOf, type QsfDocument, type QsfFlowNode, questionsOf } from './qsf.js';
import { describeQuestion, isSupportedQuestion } from './question-types.js';

// biome-ignore lint/suspicious/noExplicitAny: QSF payloads are loosely shaped JSON
type Json = any;

const RUN_FLOW = new Set([
  'Block',
  'Standard',
  'Default',
  'Branch',
  'EmbeddedData',
  'BlockRandomizer',
  'Randomizer',
  'Group',
  'EndSurvey',
]);

const FLOW_INSTEAD: Record<string, string> = {
  Authenticator: 'respondents are not authenticated; the flow inside it runs for everyone',
  WebService: 'the web service is not called; its fields stay empty',
  Conjoint: 'the conjoint task is not shown',
  TableOfContents: 'the blocks inside it run in order',
  Quota: 'the quota action is not taken here',
  SupplementalData: 'no supplemental data is read',
  Reference: 'the referenced survey is not run',
};

const truthy = (value: unknown): boolean =>
  value === true || value === 1 || (typeof value === 'string' && /^(true|1|on|yes)$/i.test(value));
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Everything of a stored definition the engine does not run as written: its questions, then the rest. */
export function engineNotices(doc: QsfDocument): string[] {
  const unsupported = questionsOf(doc)
    .filter((q) => !isSupportedQuestion(q))
    .map(describeQuestion);
  const questions =
    unsupported.length > 0
      ? [`Imported questions the survey engine cannot run: ${unsupported.join(', ')}.`]
      : [];
  return [...questions, ...runNotices(doc)];
}

export function runNotices(doc: QsfDocument): string[] {
  const notices: string[] = [];
  const pipes = (id: string, ...texts: unknown[]) => {
    const unknown = [...new Set(texts.flatMap((t) => unknownPipes(text(t))))];
    if (unknown.length > 0)
      notices.push(`${id}: piped text ${unknown.join(', ')} is not supported and shows empty.`);
  };
  for (const question of questionsOf(doc) as Json[]) {
    const id = String(question.QuestionID);
    if (text(question.QuestionJS).trim() !== '')
      notices.push(`${id}: its JavaScript is not run; the question is shown without it.`);
    const labels = [question.Choices, question.Answers].flatMap((set) =>
      Object.values(set ?? {}).map((c: Json) => c?.Display),
    );
    pipes(id, question.QuestionText, ...labels);
  }
  flowNotices(flowOf(doc), notices, pipes);
  const options = optionsOf(doc) as Json;
  pipes('Survey options', options.EOSMessage, options.EOSRedirectURL);
  if (text(options.PasswordProtection) === 'Yes')
    notices.push('Survey options: the survey password is not asked.');
  if (truthy(options.RefererCheck)) notices.push('Survey options: the referring site is not checked.');
  if (truthy(options.BallotBoxStuffingPrevention))
    notices.push('Survey options: repeated responses from one browser are not prevented.');
  if (truthy(options.RecaptchaV3)) notices.push('Survey options: no bot detection (reCAPTCHA) is run.');
  if (truthy(options.CollectGeoLocation)) notices.push('Survey options: no location is collected.');
  return notices;
}

function flowNotices(
  nodes: QsfFlowNode[],
  notices: string[],
  pipes: (id: string, ...texts: unknown[]) => void,
): void {
  for (const node of nodes as Json[]) {
    const id = String(node.FlowID);
    if (!RUN_FLOW.has(node.Type)) {
      const instead = FLOW_INSTEAD[node.Type] ?? 'it is passed over';
      notices.push(`${id} (${node.Type}): not run; ${instead}.`);
    }
    if (node.Type === 'EmbeddedData') pipes(id, ...(node.EmbeddedData ?? []).map((f: Json) => f?.Value));
    if (node.Type === 'EndSurvey') pipes(id, node.Options?.EOSMessage, node.Options?.EOSRedirectURL);
    if (Array.isArray(node.Flow)) flowNotices(node.Flow, notices, pipes);
  }
}
