import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { openTestDatabase, testConfig } from '../helpers/test-app.js';

it('finishes in-flight requests on close, stops workers, refuses new requests, and logs with request ids', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  const { database, drop } = await openTestDatabase();
  const app = await buildApp({
    config: testConfig(),
    database,
    clock: systemClock,
    logger: { level: 'info', stream },
  });
  let workerStopped = false;
  app.workers.add({
    name: 'probe',
    start: () => {},
    stop: async () => {
      workerStopped = true;
    },
  });
  let release: () => void = () => {};
  const entered = new Promise<void>((resolve) => {
    app.get('/slow', async () => {
      resolve();
      await new Promise<void>((r) => {
        release = r;
      });
      return { finished: true };
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const inFlight = fetch(`${base}/slow`).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
    await entered;
    const closing = app.close();
    setTimeout(() => release(), 100);
    const answered = await inFlight;
    expect(answered).toEqual({ status: 200, body: { finished: true } });
    await closing;
    expect(workerStopped).toBe(true);
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  } finally {
    await database.close();
    await drop();
  }
  const completed = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request completed');
  expect(completed.requestId).toMatch(/^[0-9a-f-]{36}$/);
});
