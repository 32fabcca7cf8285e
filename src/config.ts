import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import { DEFAULT_HEAP_GROWTH_PERCENT } from './heap-growth.js';

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
  /** `--datacenter-peers`: the other data centers' base URLs by id (docs/decisions/0011); none when unset. */
  datacenterPeers?: Record<string, string>;
  role: Role;
  allowPrivateTargets: boolean;
  /** How long a response export's file is kept after it is written, in hours. */
  exportRetentionHours: number;
  /** Where job files, exports and uploads live: files under the data directory, or the database. */
  blobStore: BlobStoreKind;
  /** Webhook POSTs in flight at once in this process, over all receivers (docs/events.md). */
  webhookConcurrency: number;
  /** The fewest and the most in flight to one receiver (a URL's origin), however it answers. */
  webhookReceiverMin: number;
  webhookReceiverMax: number;
  /** The largest import file taken (contact and response imports), in bytes; 1 GiB when not set. */
  importMaxBytes?: number;
  /** How far V8 lets the heap grow between full collections, in percent; 0: V8's own (heap-growth.ts). */
  heapGrowthPercent: number;
  /**
   * FIELDWORK_JOB_LEASE_MS and FIELDWORK_JOB_MAX_ATTEMPTS (variables only, for tests and operations): how
   * long a job worker's claim lasts (renewed every third of it while the job runs; default 60 s) and how
   * many attempts a job gets (default 5).
   */
  jobLeaseMs?: number;
  jobMaxAttempts?: number;
  /** FIELDWORK_SECRET_KEY: seals secrets at rest (events/secret-key.ts); else a key file in the data directory. */
  secretKey?: Buffer;
  /** `--smtp-url` / SMTP_URL: where distributions send mail; without it, messages are `.eml` files in the BlobStore. */
  smtpUrl?: string;
  /** Requests a minute per organisation (docs/decisions/0010); 0: no limits. */
  rateLimit: number;
  /** Redis shared by the API nodes for rate limits; without it each node counts alone. */
  redisUrl?: string;
  /** FIELDWORK_REDIS_KEY_PREFIX: where the buckets' keys start, for deployments sharing one Redis. */
  redisKeyPrefix?: string;
  /**
   * FIELDWORK_REDIS_TIMEOUT_MS (a variable only, for operations and tests): how long a rate-limit check
   * waits for Redis before the request passes unlimited (default 500 ms).
   */
  redisTimeoutMs?: number;
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
  datacenterPeers?: string;
  role?: string;
  allowPrivateTargets?: boolean;
  exportRetentionHours?: string;
  blobStore?: string;
  importMaxBytes?: string;
  heapGrowth?: string;
  webhookConcurrency?: string;
  webhookReceiverMin?: string;
  webhookReceiverMax?: string;
  smtpUrl?: string;
  rateLimit?: string;
  redisUrl?: string;
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
    ...webhookLimits(
      from('webhookConcurrency', 'FIELDWORK_WEBHOOK_CONCURRENCY', '512'),
      from('webhookReceiverMin', 'FIELDWORK_WEBHOOK_RECEIVER_MIN', '1'),
      from('webhookReceiverMax', 'FIELDWORK_WEBHOOK_RECEIVER_MAX', '256'),
    ),
    rateLimit: parseCount(from('rateLimit', 'FIELDWORK_RATE_LIMIT', DEFAULT_RATE_LIMIT), 0, 1_000_000),
    heapGrowthPercent: parseCount(
      from('heapGrowth', 'FIELDWORK_HEAP_GROWTH', String(DEFAULT_HEAP_GROWTH_PERCENT)),
      0,
      300,
    ),
  };
  const peers = setting(input, 'datacenterPeers', env, 'FIELDWORK_DATACENTER_PEERS');
  if (peers) config.datacenterPeers = parseDatacenterPeers(peers, config.datacenter);
  const redisUrl = setting(input, 'redisUrl', env, 'REDIS_URL');
  if (redisUrl) config.redisUrl = checkRedisUrl(redisUrl);
  if (env.FIELDWORK_REDIS_KEY_PREFIX) config.redisKeyPrefix = env.FIELDWORK_REDIS_KEY_PREFIX;
  if (env.FIELDWORK_REDIS_TIMEOUT_MS)
    config.redisTimeoutMs = parseCount(
      { value: env.FIELDWORK_REDIS_TIMEOUT_MS, name: 'FIELDWORK_REDIS_TIMEOUT_MS' },
      10,
      60_000,
    );
  const databaseUrl = setting(input, 'databaseUrl', env, 'DATABASE_URL');
  if (databaseUrl) config.databaseUrl = checkDatabaseUrl(databaseUrl);
  const smtpUrl = setting(input, 'smtpUrl', env, 'SMTP_URL');
  if (smtpUrl) config.smtpUrl = checkSmtpUrl(smtpUrl);
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

/** The process cap and a receiver's floor and ceiling (decision 0013); the floor is not above the ceiling. */
function webhookLimits(cap: Setting, min: Setting, max: Setting) {
  const limits = {
    webhookConcurrency: parseCount(cap, 1, 10_000),
    webhookReceiverMin: parseCount(min, 1, 10_000),
    webhookReceiverMax: parseCount(max, 1, 10_000),
  };
  if (limits.webhookReceiverMin > limits.webhookReceiverMax)
    throw new ConfigError(`${min.name} (${min.value}) must not be above ${max.name} (${max.value})`);
  return limits;
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

/**
 * `fra1=https://fra1.example.com,iad1=https://iad1.example.com`: each peer's id and base URL (the host
 * root, or a path a proxy serves it under). Never this deployment's own id: a call is never sent to itself.
 */
function parseDatacenterPeers({ value, name }: Setting, own: string): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const entry of value.split(',').map((part) => part.trim())) {
    const at = entry.indexOf('=');
    const [id, url] = [entry.slice(0, Math.max(at, 0)), entry.slice(at + 1)];
    if (!/^[a-z][a-z0-9]{1,15}$/.test(id) || !isBaseUrl(url))
      throw new ConfigError(
        `${name} must be id=url pairs like fra1=https://fra1.example.com, got "${entry}"`,
      );
    if (id === own) throw new ConfigError(`${name} names this data center (${own}) as its own peer`);
    if (peers[id]) throw new ConfigError(`${name} names ${id} twice`);
    peers[id] = url.replace(/\/+$/, '');
  }
  return peers;
}

function isBaseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && url.hostname !== '' && !url.search && !url.hash && !url.username;
  } catch {
    return false;
  }
}

function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1, 0, true or false, got "${value}"`);
}

/**
 * 3,000 a minute (COMPAT.md) on every deployment, so that a client meets the real service's 429s here
 * first; `--rate-limit 0` turns limits off for local use (decision 0010).
 */
const DEFAULT_RATE_LIMIT = '3000';

function checkRedisUrl({ value, name }: Setting): string {
  if (!/^rediss?:\/\//.test(value))
    throw new ConfigError(`${name} must be a redis:// or rediss:// URL, got "${value.split('@').pop()}"`);
  return value;
}

function checkDatabaseUrl({ value, name }: Setting): string {
  // Only the part after the credentials is shown: the URL may carry a password.
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new ConfigError(`${name} must be a postgres:// URL, got "${value.split('@').pop()}"`);
  return value;
}

/** smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the start), user and password in the URL. */
function checkSmtpUrl({ value, name }: Setting): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  // Only the part after the credentials is shown: the URL may carry a password.
  if (!url || !/^smtps?:$/.test(url.protocol) || !url.hostname)
    throw new ConfigError(
      `${name} must be an smtp:// or smtps:// URL with a host, got "${value.split('@').pop()}"`,
    );
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
