import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Config, parseSecretKey } from '../config.js';

/** The key file's name in the data directory, used when FIELDWORK_SECRET_KEY is not set. */
export const SECRET_KEY_FILE = 'secret.key';

type KeyConfig = Pick<Config, 'secretKey' | 'dataDir' | 'databaseUrl'>;

/** Each throwaway (`:memory:`) database lives in this process alone, and so does its key. */
const processKey = randomBytes(32);
const keyFiles = new Map<string, Buffer>();

/**
 * The 32-byte key that seals secrets at rest (sealed-secret.ts): FIELDWORK_SECRET_KEY when set, else
 * `<data>/secret.key`, made on first start (0600, Base64). Nodes sharing one PostgreSQL database must all
 * have the same key: set the variable on every node (secretKeyWarning says so at start).
 */
export function secretKeyOf(config: KeyConfig): Buffer {
  if (config.secretKey) return config.secretKey;
  if (config.dataDir === ':memory:') return processKey;
  const path = resolve(config.dataDir, SECRET_KEY_FILE);
  let key = keyFiles.get(path);
  if (!key) {
    key = readOrCreateKeyFile(path);
    keyFiles.set(path, key);
  }
  return key;
}

/** What a start on PostgreSQL without FIELDWORK_SECRET_KEY logs: another node's key file differs from ours. */
export function secretKeyWarning(config: KeyConfig): string | undefined {
  if (config.secretKey || !config.databaseUrl) return undefined;
  const where = config.dataDir === ':memory:' ? 'memory only' : join(config.dataDir, SECRET_KEY_FILE);
  return (
    `FIELDWORK_SECRET_KEY is not set: sharedKeys are sealed with the key in ${where}. Every node of a ` +
    'PostgreSQL deployment needs the same key: set FIELDWORK_SECRET_KEY (32 bytes, Base64 or hex) on all of them.'
  );
}

function readOrCreateKeyFile(path: string): Buffer {
  try {
    return readKeyFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: nodes starting together over one data
  // directory never read a half-written key, and the first link wins (link refuses to replace a file).
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return readKeyFile(path);
}

function readKeyFile(path: string): Buffer {
  const key = parseSecretKey(readFileSync(path, 'utf8').trim());
  if (!key) throw new Error(`${path} does not hold a 32-byte key in Base64 or hex`);
  return key;
}
