import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.js';

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
    });
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
  ])('names the bad setting %j %j', (flags, env, name) => {
    expect(() => readConfig(flags, env)).toThrow(ConfigError);
    expect(() => readConfig(flags, env)).toThrow(name);
  });

  it('never prints the password of a bad database URL', () => {
    expect(() => readConfig({}, { DATABASE_URL: 'mysql://user:hunter2@db/x' })).toThrow(/^(?!.*hunter2)/);
  });
});
