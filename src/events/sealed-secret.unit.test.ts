import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseSecretKey, readConfig } from '../config.js';
import { isSealed, openSecret, sealSecret, UnreadableSecretError } from './sealed-secret.js';
import { SECRET_KEY_FILE, secretKeyOf, secretKeyWarning } from './secret-key.js';

const key = randomBytes(32);

describe('sealed secrets', () => {
  it('seal with AES-256-GCM under a fresh IV each time, and open back', () => {
    const first = sealSecret('0123456789abcdef', key);
    const second = sealSecret('0123456789abcdef', key);
    expect(first.startsWith('v1:')).toBe(true);
    expect(first).not.toBe(second);
    expect(first).not.toContain('0123456789abcdef');
    expect(Buffer.from(first.slice(3), 'base64')).toHaveLength(12 + 16 + 16);
    expect(openSecret(first, key)).toBe('0123456789abcdef');
    expect(openSecret(second, key)).toBe('0123456789abcdef');
    expect(isSealed(first)).toBe(true);
  });

  it('keep any text, including one that looks sealed', () => {
    for (const plain of ['é☕ key', 'v1:abc', 'k'.repeat(256)])
      expect(openSecret(sealSecret(plain, key), key)).toBe(plain);
  });

  it('refuse another key and an altered value', () => {
    const sealed = sealSecret('secret', key);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow(UnreadableSecretError);
    const bytes = Buffer.from(sealed.slice(3), 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => openSecret(`v1:${bytes.toString('base64')}`, key)).toThrow(UnreadableSecretError);
    expect(() => openSecret('v1:AAAA', key)).toThrow(UnreadableSecretError);
  });

  it('read a value tagged clear by migration 0007, or written directly, as clear text', () => {
    expect(openSecret('v0:v1:not sealed', key)).toBe('v1:not sealed');
    expect(openSecret('plain key', key)).toBe('plain key');
    expect(isSealed('v0:x')).toBe(false);
  });
});

describe('the secret key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read from FIELDWORK_SECRET_KEY as Base64 or hex, and a bad value names the variable', () => {
    const bytes = randomBytes(32);
    const base = { data: ':memory:' };
    expect(readConfig(base, { FIELDWORK_SECRET_KEY: bytes.toString('base64') }).secretKey).toEqual(bytes);
    expect(readConfig(base, { FIELDWORK_SECRET_KEY: bytes.toString('hex') }).secretKey).toEqual(bytes);
    expect(readConfig(base, {}).secretKey).toBeUndefined();
    for (const bad of ['short', randomBytes(16).toString('base64'), 'z'.repeat(64)]) {
      expect(() => readConfig(base, { FIELDWORK_SECRET_KEY: bad })).toThrow(ConfigError);
      expect(() => readConfig(base, { FIELDWORK_SECRET_KEY: bad })).toThrow(/FIELDWORK_SECRET_KEY/);
    }
  });

  it('else is made on first start in the data directory, 0600, and read back after', () => {
    const dataDir = join(dir, 'data');
    const made = secretKeyOf({ dataDir });
    const path = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(path, 'utf8').trim())).toEqual(made);
    expect(secretKeyOf({ dataDir: `${dataDir}/` })).toEqual(made);
  });

  it('from the environment wins, and only PostgreSQL without it is warned about', () => {
    const env = randomBytes(32);
    expect(secretKeyOf({ dataDir: join(dir, 'unused'), secretKey: env })).toBe(env);
    expect(() => statSync(join(dir, 'unused'))).toThrow();
    expect(secretKeyWarning({ dataDir: dir })).toBeUndefined();
    expect(secretKeyWarning({ dataDir: dir, databaseUrl: 'postgres://x/y', secretKey: env })).toBeUndefined();
    expect(secretKeyWarning({ dataDir: dir, databaseUrl: 'postgres://x/y' })).toMatch(/FIELDWORK_SECRET_KEY/);
  });
});
