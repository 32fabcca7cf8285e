import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';

export type Role = 'all' | 'api' | 'worker';
export type BlobStoreKind = 'directory' | 'database';

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
  /** Where job files, exports and uploads live: files under the data directory, or the database. */
  blobStore: BlobStoreKind;
  /** The largest import file taken (contact and response imports), in bytes; 1 GiB when not set. */
  importMaxBytes?: number;
  /**
   * FIELDWORK_JOB_LEASE_MS and FIELDWORK_JOB_MAX_ATTEMPTS (variables only, for tests and operations): how
   * long a job worker's claim lasts (renewed every third of it while the job runs; default 60 s) and how
   * many attempts a job gets (default 5).
   */
  jobLeaseMs?: number;
  jobMaxAttempts?: number;
  /** FIELDWORK_SECRET_KEY: seals secrets at rest (events/secret-key.ts); else a key file in the data directory. */
  secretKey?: Buffer;
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
  blobStore?: string;
  importMaxBytes?: string;
}

/** A value and the name it came from (the flag or the variable), so an error names what to fix. */
interface Setting {
  value: string;
  name: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ROLES: Role[] = ['all', 'api', 'worker'];
const BLOB_STORES: BlobStoreKind[] = ['directory', 'database'];

export function readConfig(input: ConfigInput, env: NodeJS.ProcessEnv = process.env): Config {
  const from = (flag: keyof ConfigInput, variable: string, fallback: string): Setting =>
    setting(input, flag, env, variable) ?? { value: fallback, name: variable };
  const config: Config = {
    port: parsePort(from('port', 'PORT', '8080')),
    host: checkHost(from('host', 'HOST', '127.0.0.1')),
    dataDir: input.data ?? env.FIELDWORK_DATA_DIR ?? './data',
    logLevel: pick(from('logLevel', 'LOG_LEVEL', 'info'), LOG_LEVELS),
    trustProxy: input.trustProxy ?? envFlag(env, 'FIELDWORK_TRUST_PROXY'),
    datacenter: checkDatacenter(from('datacenter', 'FIELDWORK_DATACENTER', 'loc1')),
    role: pick(from('role', 'FIELDWORK_ROLE', 'all'), ROLES),
    allowPrivateTargets: input.allowPrivateTargets ?? envFlag(env, 'FIELDWORK_ALLOW_PRIVATE_TARGETS'),
    exportRetentionHours: parseHours(from('exportRetentionHours', 'FIELDWORK_EXPORT_RETENTION_HOURS', '24')),
    blobStore: pick(from('blobStore', 'FIELDWORK_BLOB_STORE', 'directory'), BLOB_STORES),
  };
  const databaseUrl = setting(input, 'databaseUrl', env, 'DATABASE_URL');
  if (databaseUrl) config.databaseUrl = checkDatabaseUrl(databaseUrl);
  const importMaxBytes = setting(input, 'importMaxBytes', env, 'FIELDWORK_IMPORT_MAX_BYTES');
  if (importMaxBytes) config.importMaxBytes = parseBytes(importMaxBytes);
  if (env.FIELDWORK_JOB_LEASE_MS)
    config.jobLeaseMs = parseCount(
      { value: env.FIELDWORK_JOB_LEASE_MS, name: 'FIELDWORK_JOB_LEASE_MS' },
      100,
      86_400_000,
    );
  if (env.FIELDWORK_JOB_MAX_ATTEMPTS)
    config.jobMaxAttempts = parseCount(
      { value: env.FIELDWORK_JOB_MAX_ATTEMPTS, name: 'FIELDWORK_JOB_MAX_ATTEMPTS' },
      1,
      100,
    );
  // An environment variable only: a flag would show the key to anyone listing processes.
  if (env.FIELDWORK_SECRET_KEY) config.secretKey = checkSecretKey(env.FIELDWORK_SECRET_KEY);
  const tlsCert = setting(input, 'tlsCert', env, 'FIELDWORK_TLS_CERT');
  const tlsKey = setting(input, 'tlsKey', env, 'FIELDWORK_TLS_KEY');
  if (Boolean(tlsCert) !== Boolean(tlsKey))
    throw new ConfigError('--tls-cert and --tls-key (FIELDWORK_TLS_CERT, FIELDWORK_TLS_KEY) go together');
  if (tlsCert && tlsKey) Object.assign(config, checkTls(tlsCert, tlsKey));
  return config;
}

/** The flag's value if given, else the variable's (empty counts as unset), with the name it came from. */
function setting(
  input: ConfigInput,
  flag: keyof ConfigInput,
  env: NodeJS.ProcessEnv,
  variable: string,
): Setting | undefined {
  const given = input[flag];
  if (typeof given === 'string') return { value: given, name: flagName(flag) };
  const value = env[variable];
  return value ? { value, name: variable } : undefined;
}

/** `databaseUrl` → `--database-url`. */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

function parsePort({ value, name }: Setting): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new ConfigError(`${name} must be a port number 0-65535, got "${value}"`);
  return port;
}

/** An IP address or a host name; a dotted quad that is not an IPv4 address (999.1.1.1) is neither. */
function checkHost({ value, name }: Setting): string {
  if (isIP(value)) return value;
  const labels = value.split('.');
  const hostName =
    value.length <= 253 && labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
  if (hostName && !labels.every((label) => /^\d+$/.test(label))) return value;
  throw new ConfigError(`${name} must be an IP address or a host name to listen on, got "${value}"`);
}

/** A positive number of hours (fractions allowed), at most ten years. */
function parseHours({ value, name }: Setting): number {
  const hours = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || hours <= 0 || hours > 87_600)
    throw new ConfigError(`${name} must be a number of hours above 0 (at most 87600), got "${value}"`);
  return hours;
}

/** A whole number from `min` to `max`. */
function parseCount({ value, name }: Setting, min: number, max: number): number {
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < min || count > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return count;
}

/** A whole number of bytes from 1 to 1 TiB. */
function parseBytes({ value, name }: Setting): number {
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || bytes < 1 || bytes > 2 ** 40)
    throw new ConfigError(`${name} must be a number of bytes from 1 to 1099511627776, got "${value}"`);
  return bytes;
}

/** 32 bytes as Base64 (44 characters, or 43 without padding) or hex (64); undefined otherwise. */
export function parseSecretKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text)) return Buffer.from(text, 'base64');
  return undefined;
}

function checkSecretKey(value: string): Buffer {
  const key = parseSecretKey(value);
  if (!key)
    throw new ConfigError(
      'FIELDWORK_SECRET_KEY must be 32 bytes in Base64 or hex (`openssl rand -base64 32` makes one)',
    );
  return key;
}

function pick<T extends string>({ value, name }: Setting, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function checkDatacenter({ value, name }: Setting): string {
  if (!/^[a-z][a-z0-9]{1,15}$/.test(value))
    throw new ConfigError(`${name} must look like fra1 or iad1, got "${value}"`);
  return value;
}

function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1, 0, true or false, got "${value}"`);
}

function checkDatabaseUrl({ value, name }: Setting): string {
  // Only the part after the credentials is shown: the URL may carry a password.
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new ConfigError(`${name} must be a postgres:// URL, got "${value.split('@').pop()}"`);
  return value;
}

/** Both files exist and hold PEM that Node's TLS takes, and the key is the certificate's. */
function checkTls(cert: Setting, key: Setting): { tlsCert: string; tlsKey: string } {
  const certPem = readPem(cert, 'certificate', (pem) => new X509Certificate(pem));
  const keyPem = readPem(key, 'private key', (pem) => createPrivateKey(pem));
  try {
    createSecureContext({ cert: certPem, key: keyPem });
  } catch (error) {
    throw new ConfigError(`${key.name} is not the key of ${cert.name}: ${oneLine(error)}`);
  }
  return { tlsCert: cert.value, tlsKey: key.value };
}

function readPem({ value, name }: Setting, kind: string, parse: (pem: Buffer) => unknown): Buffer {
  if (!existsSync(value)) throw new ConfigError(`${name} file not found: ${value}`);
  let pem: Buffer;
  try {
    pem = readFileSync(value);
    if (!pem.includes('-----BEGIN ')) throw new Error('no "-----BEGIN" line');
    parse(pem);
  } catch (error) {
    throw new ConfigError(`${name} must be a PEM ${kind} file, ${value} is not (${oneLine(error)})`);
  }
  return pem;
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
