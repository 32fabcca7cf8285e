import { createDecipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildMessage,
  encryptMessage,
  formValue,
  isEncryptionKey,
  messageHmac,
  plainMessage,
} from './message.js';

const input = {
  eventId: 'EV_aaaaaaaaaaaaaaa',
  brandId: 'acme',
  topic: 'controlpanel.activateSurvey',
  payload: { Status: 'Active', SurveyID: 'SV_abcdefghij12345' },
  sharedKey: null,
  encrypt: false,
  sentAt: new Date('2026-01-01T00:00:10.500Z'),
};

describe('message building', () => {
  it('puts the brand-prefixed topic and the payload with BrandID in the form body', () => {
    const { body, headers } = buildMessage(input);
    const form = new URLSearchParams(body);
    expect(form.get('Topic')).toBe('acme.controlpanel.activateSurvey');
    expect(JSON.parse(form.get('MSG') ?? '')).toEqual({ ...input.payload, BrandID: 'acme' });
    expect(form.has('HMAC')).toBe(false);
    expect(headers).toEqual({
      'content-type': 'application/x-www-form-urlencoded',
      'webhook-id': 'EV_aaaaaaaaaaaaaaa',
      'webhook-timestamp': '1767225610',
    });
  });

  it('signs MSG with HMAC-SHA512 (128 lowercase hex) and the body with a Standard Webhooks v1 signature', () => {
    const { body, headers } = buildMessage({ ...input, sharedKey: 'key' });
    const form = new URLSearchParams(body);
    const msg = form.get('MSG') ?? '';
    expect(form.get('HMAC')).toBe(createHmac('sha512', 'key').update(msg).digest('hex'));
    expect(form.get('HMAC')).toMatch(/^[0-9a-f]{128}$/);
    const expected = createHmac('sha256', 'key')
      .update(`EV_aaaaaaaaaaaaaaa.1767225610.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it.each([16, 32])(
    'encrypts with AES-ECB/PKCS#7 for a %i-byte key; the HMAC covers the ciphertext',
    (bytes) => {
      const key = 'k'.repeat(bytes);
      const form = new URLSearchParams(buildMessage({ ...input, sharedKey: key, encrypt: true }).body);
      const msg = form.get('MSG') ?? '';
      const decipher = createDecipheriv(`aes-${bytes * 8}-ecb`, Buffer.from(key), null);
      const plain = Buffer.concat([decipher.update(Buffer.from(msg, 'base64')), decipher.final()]).toString();
      expect(plain).toBe(plainMessage('acme', input.payload));
      expect(Buffer.from(msg, 'base64').length % 16).toBe(0);
      expect(form.get('HMAC')).toBe(messageHmac(msg, key));
    },
  );

  it('knows AES key lengths in bytes and refuses others', () => {
    expect(isEncryptionKey('x'.repeat(16))).toBe(true);
    expect(isEncryptionKey('x'.repeat(32))).toBe(true);
    expect(isEncryptionKey('x'.repeat(24))).toBe(false);
    expect(isEncryptionKey('é'.repeat(8))).toBe(true);
    expect(() => encryptMessage('{}', 'short')).toThrow();
  });
});

describe('message building from stored payloads', () => {
  it.each([
    {},
    { Status: 'Complete', SurveyID: 'SV_1', Nested: { a: [1, 'x"y'] } },
    { BrandID: 'spoofed', Other: 1 },
    { Text: 'mentions "BrandID" inside' },
  ])('gives the same MSG from the stored JSON text as from the object (%j)', (payload) => {
    expect(plainMessage('acme', JSON.stringify(payload))).toBe(plainMessage('acme', payload));
    expect(JSON.parse(plainMessage('acme', JSON.stringify(payload))).BrandID).toBe('acme');
  });

  it('encrypts many messages of every padding length under one key, each decrypting on its own', () => {
    const key = 'k'.repeat(32);
    for (let length = 0; length <= 40; length++) {
      const text = 'é'.repeat(length % 3) + 'x'.repeat(length);
      const msg = encryptMessage(text, key);
      const decipher = createDecipheriv('aes-256-ecb', Buffer.from(key), null);
      const plain = Buffer.concat([decipher.update(Buffer.from(msg, 'base64')), decipher.final()]);
      expect(plain.toString('utf8')).toBe(text);
    }
  });
});

describe('form encoding', () => {
  it.each([
    '',
    'abcXYZ019*-._',
    'a+b/c==',
    "space and !'()~ signs",
    '{"Text":"é 漢字 😀","Amp":"a&b=c%d"}',
    'tab\tnewline\r\n',
    'lone \ud800 surrogate',
  ])('encodes %j exactly as URLSearchParams does', (value) => {
    expect(formValue(value)).toBe(new URLSearchParams({ v: value }).toString().slice(2));
  });

  it('builds the body URLSearchParams would', () => {
    const message = buildMessage({ ...input, brandId: 'a c!', sharedKey: 'k'.repeat(32), encrypt: true });
    const form = new URLSearchParams(message.body);
    expect(message.body).toBe(
      new URLSearchParams({
        Topic: form.get('Topic') ?? '',
        MSG: form.get('MSG') ?? '',
        HMAC: form.get('HMAC') ?? '',
      }).toString(),
    );
  });
});
