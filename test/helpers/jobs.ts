import type { Deps } from '../../src/deps.js';
import { type JobHandler, JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { type TestApp, testConfig } from './test-app.js';

/** A job worker of the test's own for one job kind, over the test app's database and clock (stop it in the test). */
export function startJobWorker(
  t: TestApp,
  kind: string,
  handler: (deps: Deps) => JobHandler,
  pollMs: number,
): JobWorker {
  const registry = new JobRegistry();
  const deps = { db: t.database.db, clock: t.clock, config: testConfig(), blobs: t.app.blobs };
  registry.register(kind, handler(deps));
  const worker = new JobWorker({ db: t.database.db, clock: t.clock, registry, pollMs });
  worker.start();
  return worker;
}
