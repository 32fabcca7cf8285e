import type { LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config.js';
import type { TestApp } from '../helpers/test-app.js';
import { answerProblem, scopeProblem, storeProblem } from './check.js';
import { changedTables, type Fingerprint, Fingerprinter } from './fingerprint.js';
import { preview } from './json-text.js';
import { materialize, type WireRequest, type Worlds } from './materialize.js';
import type { Operation } from './operations.js';
import type { Plan } from './plan.js';
import { seedWorld } from './world.js';

const ANSWER_WITHIN_MS = 20_000;

/** A request and answer that broke a rule: its message shows both, shortened. */
export class FuzzFailure extends Error {
  constructor(
    readonly problem: string,
    request: WireRequest,
    res: LightMyRequestResponse | undefined,
  ) {
    super(`${problem}\n${describeRequest(request)}\n${res ? describeAnswer(res) : 'no answer'}`);
    this.name = 'FuzzFailure';
  }
}

/**
 * Sends requests to the app and checks every answer (check.ts) and, after a refused call, that no row of
 * the database changed: it compares a fingerprint of every table (fingerprint.ts) taken after each call
 * with the one taken after the call before, so a change is pinned on the call that made it.
 */
export class Fuzzer {
  readonly statuses = new Map<number, number>();
  requests = 0;
  reseeds = 0;
  /** Valid requests sent, and how many of them went through (2xx): the share that reached past validation. */
  readonly valid = { sent: 0, accepted: 0 };
  /** A seeded resource may be gone: reseed before the next operation, or before the next request. */
  private stale: 'operation' | 'request' | undefined;

  private constructor(
    private readonly t: TestApp,
    private readonly config: Config,
    private readonly worlds: Worlds,
    private readonly fingerprints: Fingerprinter,
    private last: Fingerprint,
  ) {}

  static async start(t: TestApp, config: Config): Promise<Fuzzer> {
    const worlds = { own: await seedWorld(t, config), foreign: await seedWorld(t, config) };
    const fingerprints = await Fingerprinter.of(t.database);
    return new Fuzzer(t, config, worlds, fingerprints, await fingerprints.take());
  }

  /** Called before each operation's requests: they start from a whole seeded organisation. */
  async beginOperation(): Promise<void> {
    if (this.stale) await this.reseed();
  }

  get world() {
    return this.worlds.own;
  }

  /** Sends the plan's request; throws a FuzzFailure when the answer or the database breaks a rule. */
  async run(op: Operation, plan: Plan): Promise<void> {
    if (this.stale === 'request') await this.reseed();
    const request = materialize(op, plan, this.worlds);
    const res = await injectWithin(this.t, request);
    this.count(plan, res.statusCode);
    const now = await this.fingerprints.take();
    const changed = changedTables(this.last, now);
    this.last = now;
    if (res.statusCode < 300) this.stale = staleAfter(op) ?? this.stale;
    const problem =
      answerProblem(res) ?? storeProblem(res.statusCode, changed) ?? scopeProblem(plan, res.statusCode);
    if (problem) throw new FuzzFailure(problem, request, res);
  }

  private count(plan: Plan, status: number): void {
    this.requests++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (plan.variant !== 'valid') return;
    this.valid.sent++;
    if (status < 300) this.valid.accepted++;
  }

  /**
   * A new organisation replaces the fuzzer's own after a call that may have deleted a seeded resource or
   * changed a seeded user's token or status, so later requests still reach past the 404s and 401s.
   */
  private async reseed(): Promise<void> {
    this.worlds.own = await seedWorld(this.t, this.config);
    this.last = await this.fingerprints.take();
    this.reseeds++;
    this.stale = undefined;
  }
}

/**
 * After a call that went through: a deleted resource only turns later calls of the same operation into
 * 404s (its success path was tried), so the organisation is reseeded for the next operation; a changed or
 * deleted user may have taken the fuzzer's tokens with it, so then it is reseeded at once.
 */
function staleAfter(op: Operation): 'operation' | 'request' | undefined {
  if (op.path.startsWith('/API/v3/users/{userId}') && op.method !== 'GET') return 'request';
  return op.method === 'DELETE' ? 'operation' : undefined;
}

/** `app.inject`, failing when no answer comes within the limit (a hung handler is a failure too). */
async function injectWithin(t: TestApp, request: WireRequest): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FuzzFailure(`no answer within ${ANSWER_WITHIN_MS} ms`, request, undefined)),
      ANSWER_WITHIN_MS,
    );
  });
  try {
    return await Promise.race([
      t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        payload: request.payload,
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function describeRequest(request: WireRequest): string {
  const payload = request.payload;
  const body =
    payload === undefined
      ? '(no body)'
      : Buffer.isBuffer(payload)
        ? `${preview(payload.toString('latin1'), 300)} (${payload.length} bytes)`
        : preview(payload, 300);
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'x-api-token' && name !== 'authorization')
    .map(([name, value]) => `${name}: ${preview(value, 100)}`);
  return `request: ${request.method} ${preview(request.url, 300)}\n  auth: ${authOf(request)}\n  ${headers.join('\n  ') || '(no content-type)'}\n  body: ${body}`;
}

function authOf(request: WireRequest): string {
  if (request.headers.authorization) return 'bearer token';
  return request.headers['x-api-token']
    ? `x-api-token (${request.headers['x-api-token'].length} chars)`
    : 'none';
}

function describeAnswer(res: LightMyRequestResponse): string {
  return `answer: ${res.statusCode} ${String(res.headers['content-type'] ?? '')}\n  ${preview(res.body, 600)}`;
}
