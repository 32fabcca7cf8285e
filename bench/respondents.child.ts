/**
 * The load generator of the survey-taking benchmark, in a process of its own so the server under test
 * keeps its event loop: `respondents` browsers at once, each taking the survey from its link to the end
 * page in a loop (open the link, post each page, follow every 303 as a browser does), for a warm-up and
 * then a measured time. Prints one JSON line: completed responses and requests per second, the latency of
 * every request (page p50/p99/max), the same split into the post that records the response and the other
 * requests (where the p99 comes from), and the errors (any answer a browser would not expect).
 */
import type { RespondentsResult, RespondentsSpec } from './survey-taking.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as RespondentsSpec;

interface Tally {
  completed: number;
  requests: number;
  errors: number;
  /** Every request's latency, in two: the last page's posts, which record the responses, and the others. */
  recording: number[];
  others: number[];
  firstError?: string;
}

async function respond(tally: Tally): Promise<void> {
  let cookie = '';
  let recordingPost = false;
  const timed = async (url: string, init: RequestInit): Promise<Response> => {
    const started = performance.now();
    const response = await fetch(url, { ...init, redirect: 'manual' });
    const body = response.status === 303 ? '' : await response.text();
    const latency = performance.now() - started;
    (recordingPost && init.method === 'POST' ? tally.recording : tally.others).push(latency);
    tally.requests++;
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0] ?? '';
    return Object.assign(response, { bodyText: body });
  };
  const go = async (path: string, body?: URLSearchParams): Promise<string> => {
    let response = await timed(`${spec.origin}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: cookie ? { cookie } : {},
      ...(body ? { body } : {}),
    });
    while (response.status === 303)
      response = await timed(`${spec.origin}${response.headers.get('location')}`, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`${path}: status ${response.status}`);
    return (response as Response & { bodyText: string }).bodyText;
  };
  const path = `/jfe/form/${spec.surveyId}`;
  let page = await go(path);
  for (const [index, fields] of spec.pages.entries()) {
    recordingPost = index === spec.pages.length - 1;
    const form = new URLSearchParams(fields);
    for (const name of ['_fw_session', '_fw_page'])
      form.set(name, new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '');
    page = await go(path, form);
  }
  if (!page.includes(spec.endText)) throw new Error('the survey did not end');
}

async function run(seconds: number): Promise<Tally> {
  const tally: Tally = { completed: 0, requests: 0, errors: 0, recording: [], others: [] };
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: spec.respondents }, async () => {
      while (performance.now() < until) {
        try {
          await respond(tally);
          tally.completed++;
        } catch (error) {
          tally.errors++;
          tally.firstError ??= (error as Error).message;
        }
      }
    }),
  );
  return tally;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

const warm = await run(spec.warmUpS);
const tally = await run(spec.durationS);
const sorted = [...tally.recording, ...tally.others].sort((a, b) => a - b);
const recording = tally.recording.sort((a, b) => a - b);
const others = tally.others.sort((a, b) => a - b);
const result: RespondentsResult = {
  completedPerS: tally.completed / spec.durationS,
  completedInAll: warm.completed + tally.completed,
  requestsPerS: tally.requests / spec.durationS,
  p50Ms: percentile(sorted, 50),
  p99Ms: percentile(sorted, 99),
  maxMs: sorted.at(-1) ?? 0,
  recordingP50Ms: percentile(recording, 50),
  recordingP99Ms: percentile(recording, 99),
  othersP99Ms: percentile(others, 99),
  errors: tally.errors,
  ...(tally.firstError ? { firstError: tally.firstError } : {}),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
