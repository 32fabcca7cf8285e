import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, type ConfigInput, readConfig } from './config.js';

describe('readConfig', () => {
  it('has defaults for the embedded quick start', () => {
    expect(readConfig({}, {})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: './data',
      logLevel: 'info',
      trustProxy: false,
      datacenter: 'loc1',
      role: 'all',
      allowPrivateTargets: false,
      exportRetentionHours: 24,
      blobStore: 'directory',
      rateLimit: 3000,
      webhookConcurrency: 512,
      webhookReceiverMin: 1,
      webhookReceiverMax: 256,
      heapGrowthPercent: 50,
    });
  });

  it('takes how far the heap grows between full collections, 0 for V8’s own (decision 0019)', () => {
    expect(readConfig({}, { FIELDWORK_HEAP_GROWTH: '0' }).heapGrowthPercent).toBe(0);
    expect(readConfig({ heapGrowth: '120' }, { FIELDWORK_HEAP_GROWTH: '0' }).heapGrowthPercent).toBe(120);
    expect(() => readConfig({ heapGrowth: '301' }, {})).toThrow(
      '--heap-growth must be a whole number from 0 to 300, got "301"',
    );
    expect(() => readConfig({}, { FIELDWORK_HEAP_GROWTH: '1.5' })).toThrow(
      'FIELDWORK_HEAP_GROWTH must be a whole number from 0 to 300, got "1.5"',
    );
  });

  it('takes the webhook concurrency cap and a receiver’s floor and ceiling, floor not above ceiling (decision 0013)', () => {
    const env = { FIELDWORK_WEBHOOK_CONCURRENCY: '64', FIELDWORK_WEBHOOK_RECEIVER_MIN: '2' };
    expect(readConfig({ webhookReceiverMax: '40' }, env)).toMatchObject({
      webhookConcurrency: 64,
      webhookReceiverMin: 2,
      webhookReceiverMax: 40,
    });
    expect(() => readConfig({ webhookReceiverMin: '50' }, { FIELDWORK_WEBHOOK_RECEIVER_MAX: '40' })).toThrow(
      '--webhook-receiver-min (50) must not be above FIELDWORK_WEBHOOK_RECEIVER_MAX (40)',
    );
    expect(() => readConfig({ webhookConcurrency: '0' }, {})).toThrow(
      '--webhook-concurrency must be a whole number from 1 to 10000, got "0"',
    );
  });

  it('takes environment variables, and flags over them', () => {
    const env = {
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u@h/db',
      FIELDWORK_ALLOW_PRIVATE_TARGETS: '1',
      FIELDWORK_EXPORT_RETENTION_HOURS: '0.5',
    };
    expect(readConfig({}, env)).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u@h/db',
      allowPrivateTargets: true,
      exportRetentionHours: 0.5,
    });
    expect(readConfig({ port: '7000' }, env).port).toBe(7000);
    expect(readConfig({}, { FIELDWORK_IMPORT_MAX_BYTES: '65536' }).importMaxBytes).toBe(65536);
    expect(
      readConfig({ importMaxBytes: '1024' }, { FIELDWORK_IMPORT_MAX_BYTES: '65536' }).importMaxBytes,
    ).toBe(1024);
  });

  it.each([
    [{ port: '8o8o' }, {}, '--port'],
    [{}, { PORT: '-1' }, 'PORT'],
    [{}, { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{}, { DATABASE_URL: 'sqlite:///x' }, 'DATABASE_URL'],
    [{ tlsCert: '/nope' }, {}, '--tls-cert and --tls-key'],
    [{}, { FIELDWORK_DATACENTER: 'Frankfurt 1' }, 'FIELDWORK_DATACENTER'],
    [{ exportRetentionHours: '0' }, {}, '--export-retention-hours'],
    [{}, { FIELDWORK_EXPORT_RETENTION_HOURS: 'a day' }, 'FIELDWORK_EXPORT_RETENTION_HOURS'],
    [{ importMaxBytes: '1.5' }, {}, '--import-max-bytes'],
    [{}, { FIELDWORK_IMPORT_MAX_BYTES: '0' }, 'FIELDWORK_IMPORT_MAX_BYTES'],
    [{ rateLimit: '-1' }, {}, '--rate-limit'],
    [{}, { FIELDWORK_RATE_LIMIT: 'lots' }, 'FIELDWORK_RATE_LIMIT'],
    [{}, { REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
  ])('names the bad setting %j %j', (flags, env, name) => {
    expect(() => readConfig(flags, env)).toThrow(ConfigError);
    expect(() => readConfig(flags, env)).toThrow(name);
  });

  it('limits 3000 a minute per organisation with PostgreSQL, none embedded, unless told (decision 0010)', () => {
    expect(readConfig({}, {}).rateLimit).toBe(3000);
    expect(readConfig({}, { DATABASE_URL: 'postgres://u@h/db' }).rateLimit).toBe(3000);
    expect(readConfig({ databaseUrl: 'postgres://u@h/db', rateLimit: '0' }, {}).rateLimit).toBe(0);
    expect(readConfig({}, { FIELDWORK_RATE_LIMIT: '120' }).rateLimit).toBe(120);
    const env = { REDIS_URL: 'rediss://:pw@cache:6380/2', FIELDWORK_REDIS_KEY_PREFIX: 'a:' };
    const redis = readConfig({}, env);
    expect(redis).toMatchObject({ redisUrl: 'rediss://:pw@cache:6380/2', redisKeyPrefix: 'a:' });
    expect(() => readConfig({ redisUrl: 'cache://:hunter2@cache' }, {})).toThrow(/^(?!.*hunter2)/);
  });

  it('never prints the password of a bad database URL', () => {
    expect(() => readConfig({}, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/^(?!.*hunter2)/);
  });
});

// Issue 19: an error names the flag when the value came from a flag, the variable when from the environment.
describe('readConfig names where a bad value came from', () => {
  const fixtures = new URL('../test/cli/fixtures/', import.meta.url).pathname;
  const cert = join(fixtures, 'tls-cert.pem');
  const key = join(fixtures, 'tls-key.pem');
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const notPem = file('not-pem.txt', 'hello, this is no certificate\n');
  const otherKey = file(
    'other-key.pem',
    generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string,
  );
  const messageOf = (flags: ConfigInput, env: NodeJS.ProcessEnv): string => {
    try {
      readConfig(flags, env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('readConfig accepted the bad value');
  };

  it.each([
    [
      { databaseUrl: 'mysql://db/x' },
      { DATABASE_URL: 'postgres://u@h/db' },
      '--database-url',
      'DATABASE_URL',
    ],
    [{}, { DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL', '--database-url'],
    [{ datacenter: 'Frankfurt 1' }, {}, '--datacenter', 'FIELDWORK_DATACENTER'],
    [{ host: '999.1.1.1' }, {}, '--host', 'HOST'],
    [{ host: 'not a host' }, {}, '--host', 'HOST'],
    [{ host: '' }, { HOST: '0.0.0.0' }, '--host', 'HOST'],
    [{}, { HOST: '1.2.3.4.5' }, 'HOST', '--host'],
    [{ tlsCert: notPem, tlsKey: key }, {}, '--tls-cert', '--tls-key'],
    [{ tlsCert: key, tlsKey: key }, {}, '--tls-cert', '--tls-key'],
    [{ tlsCert: cert, tlsKey: cert }, {}, '--tls-key', '--tls-cert'],
    [{ tlsCert: cert, tlsKey: join(dir, 'missing.pem') }, {}, '--tls-key', '--tls-cert'],
    [{}, { FIELDWORK_TLS_CERT: notPem, FIELDWORK_TLS_KEY: key }, 'FIELDWORK_TLS_CERT', '--tls-cert'],
  ] as [ConfigInput, NodeJS.ProcessEnv, string, string][])(
    '%j %j names %s',
    (flags, env, named, notNamed) => {
      const message = messageOf(flags, env);
      expect(message.startsWith(`${named} `)).toBe(true);
      expect(message).not.toContain(notNamed);
      expect(message).not.toContain('\n');
    },
  );

  it("names both files when the key is not the certificate's", () => {
    const message = messageOf({ tlsCert: cert, tlsKey: otherKey }, {});
    expect(message).toContain('--tls-key');
    expect(message).toContain('--tls-cert');
  });

  it('takes a PEM certificate with its key, and the addresses and names a server listens on', () => {
    expect(readConfig({ tlsCert: cert, tlsKey: key }, {})).toMatchObject({ tlsCert: cert, tlsKey: key });
    for (const host of ['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'db-1.internal.example']) {
      expect(readConfig({ host }, {}).host).toBe(host);
    }
  });
});
