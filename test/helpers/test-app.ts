import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Clock, systemClock } from '../../src/clock.js';
import { type Config, readConfig } from '../../src/config.js';
import { createDatabase, type Db, migrateToLatest } from '../../src/db/database.js';
import type { App } from '../../src/http/app-types.js';
import {
  type BootstrapResult,
  bootstrapOrganization,
} from '../../src/modules/organizations/bootstrap.service.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from './postgres.js';

export const TEST_ENGINE = process.env.FIELDWORK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestApp {
  app: App;
  database: Db;
  clock: Clock;
  /** A new organisation with its administrator's token; unique every call. */
  newOrganization(options?: { targetAudience?: boolean }): Promise<BootstrapResult>;
  call(
    token: string | undefined,
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // No rate limit unless a test sets one: tests make thousands of calls a minute for one organisation.
  return { ...readConfig({ data: ':memory:', port: '0', rateLimit: '0' }, {}), ...overrides };
}

/** A throwaway database on the engine under test (a fresh schema on PostgreSQL), migrated, and the app on it. */
export async function openTestDatabase(): Promise<{ database: Db; drop(): Promise<void> }> {
  // The files of one vitest worker share this module (isolate: false, vitest.config.ts): a worker that ran
  // another project's files first would hold that project's engine here, and silently test it twice.
  if (process.env.FIELDWORK_TEST_DB !== undefined && process.env.FIELDWORK_TEST_DB !== TEST_ENGINE)
    throw new Error(
      `This worker loaded the test helpers for ${TEST_ENGINE} but runs the ${process.env.FIELDWORK_TEST_DB} project`,
    );
  if (TEST_ENGINE === 'sqlite') {
    const database = createDatabase({ dataDir: ':memory:' });
    await migrateToLatest(database.db);
    return { database, drop: async () => {} };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withPgClient((client) => client.query(`create schema ${schema}`));
  const database = createDatabase({ dataDir: ':memory:', databaseUrl: TEST_DATABASE_URL, pgSchema: schema });
  await migrateToLatest(database.db);
  return {
    database,
    drop: () => dropSchema(schema),
  };
}

/** For store-level tests: a throwaway database (as `openTestDatabase`) holding one organisation. */
export async function databaseWithOrganization(
  name = 'Test organization',
): Promise<{ database: Db; brandId: string; close(): Promise<void> }> {
  const { database, drop } = await openTestDatabase();
  const brandId = uniqueBrandId();
  await bootstrapOrganization(database.db, systemClock.now(), { brandId, name });
  return {
    database,
    brandId,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

export async function buildTestApp(
  /**
   * `database`: an open, migrated database to use instead of a fresh one; closed with the app.
   * `logger`: pino options, for tests that read the log (none by default).
   */
  options: { clock?: Clock; config?: Partial<Config>; database?: Db; logger?: Record<string, unknown> } = {},
): Promise<TestApp> {
  const clock = options.clock ?? systemClock;
  const { database, drop } = options.database
    ? { database: options.database, drop: async () => {} }
    : await openTestDatabase();
  const app = await buildApp({
    config: testConfig(options.config),
    database,
    clock,
    logger: options.logger ?? false,
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    newOrganization: (org = {}) =>
      bootstrapOrganization(database.db, clock.now(), {
        brandId: uniqueBrandId(),
        targetAudience: org.targetAudience,
      }),
    call: async (token, method, url, body, headers = {}) => {
      const raw = await app.inject({
        method: method as 'GET',
        url,
        headers: { ...(token ? { 'x-api-token': token } : {}), ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const isJson = String(raw.headers['content-type'] ?? '').includes('json');
      return { status: raw.statusCode, body: isJson ? raw.json() : raw.body, headers: raw.headers, raw };
    },
    close: async () => {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

export function uniqueBrandId(): string {
  return `org${randomBytes(5).toString('hex')}`;
}
