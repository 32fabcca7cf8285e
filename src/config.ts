import { existsSync } from 'node:fs';

export type Role = 'all' | 'api' | 'worker';

/** The one validated configuration, read once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  logLevel: string;
  trustProxy: boolean;
  datacenter: string;
  role: Role;
  allowPrivateTargets: boolean;
  /** How long a response export's file is kept after it is written, in hours. */
  exportRetentionHours: number;
}

/** A bad setting: its message names the flag or variable, and the CLI prints it on one line. */
export class ConfigError extends Error {}

/** Flags win over environment variables, which win over defaults. */
export interface ConfigInput {
  port?: string;
  host?: string;
  data?: string;
  databaseUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  logLevel?: string;
  trustProxy?: boolean;
  datacenter?: string;
  role?: string;
  allowPrivateTargets?: boolean;
  exportRetentionHours?: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ROLES: Role[] = ['all', 'api', 'worker'];

export function readConfig(input: ConfigInput, env: NodeJS.ProcessEnv = process.env): Config {
  const config: Config = {
    port: parsePort(input.port ?? env.PORT ?? '8080', input.port ? '--port' : 'PORT'),
    host: input.host ?? env.HOST ?? '127.0.0.1',
    dataDir: input.data ?? env.FIELDWORK_DATA_DIR ?? './data',
    logLevel: pick(
      input.logLevel ?? env.LOG_LEVEL ?? 'info',
      LOG_LEVELS,
      input.logLevel ? '--log-level' : 'LOG_LEVEL',
    ),
    trustProxy: input.trustProxy ?? envFlag(env, 'FIELDWORK_TRUST_PROXY'),
    datacenter: input.datacenter ?? env.FIELDWORK_DATACENTER ?? 'loc1',
    role: pick(input.role ?? env.FIELDWORK_ROLE ?? 'all', ROLES, input.role ? '--role' : 'FIELDWORK_ROLE'),
    allowPrivateTargets: input.allowPrivateTargets ?? envFlag(env, 'FIELDWORK_ALLOW_PRIVATE_TARGETS'),
    exportRetentionHours: parseHours(
      input.exportRetentionHours ?? env.FIELDWORK_EXPORT_RETENTION_HOURS ?? '24',
      input.exportRetentionHours !== undefined
        ? '--export-retention-hours'
        : 'FIELDWORK_EXPORT_RETENTION_HOURS',
    ),
  };
  const databaseUrl = input.databaseUrl ?? env.DATABASE_URL;
  if (databaseUrl) config.databaseUrl = checkDatabaseUrl(databaseUrl);
  const tlsCert = input.tlsCert ?? env.FIELDWORK_TLS_CERT;
  const tlsKey = input.tlsKey ?? env.FIELDWORK_TLS_KEY;
  if (Boolean(tlsCert) !== Boolean(tlsKey))
    throw new ConfigError('--tls-cert and --tls-key must be given together');
  if (tlsCert && tlsKey) {
    config.tlsCert = mustExist(tlsCert, '--tls-cert');
    config.tlsKey = mustExist(tlsKey, '--tls-key');
  }
  if (!/^[a-z][a-z0-9]{1,15}$/.test(config.datacenter)) {
    throw new ConfigError(`FIELDWORK_DATACENTER must look like fra1 or iad1, got "${config.datacenter}"`);
  }
  return config;
}

function parsePort(value: string, name: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new ConfigError(`${name} must be a port number 0-65535, got "${value}"`);
  return port;
}

/** A positive number of hours (fractions allowed), at most ten years. */
function parseHours(value: string, name: string): number {
  const hours = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || hours <= 0 || hours > 87_600)
    throw new ConfigError(`${name} must be a number of hours above 0 (at most 87600), got "${value}"`);
  return hours;
}

function pick<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!allowed.includes(value as T))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1, 0, true or false, got "${value}"`);
}

function checkDatabaseUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got "${url.split('@').pop()}"`);
  return url;
}

function mustExist(path: string, name: string): string {
  if (!existsSync(path)) throw new ConfigError(`${name} file not found: ${path}`);
  return path;
}
