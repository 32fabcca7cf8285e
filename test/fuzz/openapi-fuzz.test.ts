import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ENGINE, testConfig } from '../helpers/test-app.js';
import { Fuzzer, FuzzFailure } from './fuzzer.js';
import { ID_KINDS, kindOfParam } from './id-kinds.js';
import { type Operation, operationsOf } from './operations.js';
import { describePlan, type Plan } from './plan.js';
import { planArbitrary } from './requests.js';

/**
 * Issue 19: every operation of the OpenAPI document gets valid, mutated and hostile requests; no answer may
 * be a 5xx, every error must be the v3 envelope with a documented code, a refused call must leave every
 * stored row as it was, and no call naming another organisation's resource may go through (fuzzer.ts).
 * In the suite: a fixed seed and RUNS requests per operation (twice that for calls with a body: they have
 * the most to vary). `npm run fuzz` sets FUZZ_RUNS higher and draws a random seed; a failure prints
 * FUZZ_SEED to replay it. FUZZ_COLLECT=1 lists every distinct failure at the end instead of stopping at
 * each operation's first.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 14);
const SEED = Number(
  process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Math.floor(Math.random() * 2 ** 31) : 19),
);
const COLLECT = process.env.FUZZ_COLLECT === '1';

// Job files (uploads) go to a directory of this test's own, removed at the end.
const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-fuzz-'));
const config = testConfig({ allowPrivateTargets: true, dataDir });
const t = await buildTestApp({ config });
const served = await t.app.inject({ method: 'GET', url: '/API/v3/openapi.json' });
const operations = operationsOf(served.json());
const runsFor = (op: Operation) => (Object.keys(op.bodies).length > 0 ? 2 * RUNS : RUNS);
// Room for every run and for shrinking a failure; past it fast-check stops and reports what it has.
const timeLimitFor = (op: Operation) => 60_000 + 500 * runsFor(op);
let fuzzer: Fuzzer;
const collected = new Map<string, { count: number; example: string }>();

beforeAll(async () => {
  console.log(`fuzz [${TEST_ENGINE}] FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
  fuzzer = await Fuzzer.start(t, config);
}, 120_000);

afterAll(async () => {
  if (fuzzer) {
    const statuses = Object.fromEntries([...fuzzer.statuses].sort(([a], [b]) => a - b));
    console.log(
      `fuzz [${TEST_ENGINE}] seed=${SEED} runs/operation=${RUNS} operations=${operations.length} ` +
        `requests=${fuzzer.requests} (valid ${fuzzer.valid.sent}, of which 2xx ${fuzzer.valid.accepted}) ` +
        `reseeds=${fuzzer.reseeds} statuses=${JSON.stringify(statuses)}`,
    );
  }
  for (const [signature, { count, example }] of collected)
    console.log(`fuzz [${TEST_ENGINE}] ${count}× ${signature}\n${example}\n`);
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the fuzzer', () => {
  it('knows every operation of the document and the kind of each path parameter', () => {
    expect(operations.length).toBeGreaterThan(80);
    for (const op of operations)
      for (const name of op.pathParams)
        expect(ID_KINDS, `${op.key} {${name}}`).toContain(kindOfParam(op.path, name));
  });

  it('has a seeded id of every kind in its organisation', () => {
    for (const kind of ID_KINDS) expect(fuzzer.world.ids[kind].length, kind).toBeGreaterThan(0);
  });
});

describe('every operation answers fuzzed requests without a 5xx, in the envelope, within its organisation, changing nothing when refused', () => {
  operations.forEach((op, index) => {
    it(
      op.key,
      async () => {
        await fuzzer.beginOperation();
        const property = fc.asyncProperty(planArbitrary(op), async (plan) => {
          try {
            await fuzzer.run(op, plan);
          } catch (error) {
            if (!(COLLECT && error instanceof FuzzFailure)) throw error;
            collect(op, plan, error);
          }
        });
        try {
          const limit = timeLimitFor(op);
          await fc.assert(property, {
            seed: SEED + index,
            numRuns: runsFor(op),
            interruptAfterTimeLimit: limit,
            // The FuzzFailure's message (request and answer) goes into the report, not only its cause.
            includeErrorInReport: true,
          });
        } catch (error) {
          throw new Error(`Replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}.\n${(error as Error).message}`);
        }
      },
      timeLimitFor(op) + 60_000,
    );
  });
});

/** FUZZ_COLLECT=1: a failure is counted under its operation and problem, the first example kept. */
function collect(op: Operation, plan: Plan, failure: FuzzFailure): void {
  const signature = `${op.key}: ${failure.problem}`;
  const seen = collected.get(signature);
  collected.set(signature, {
    count: (seen?.count ?? 0) + 1,
    example: seen?.example ?? `${failure.message}\n  plan: ${describePlan(plan)}`,
  });
}
