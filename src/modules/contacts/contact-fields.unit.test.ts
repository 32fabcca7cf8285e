import { describe, expect, it } from 'vitest';
import { changedContactRow, emailKey, mergeEmbeddedData, newContactRow } from './contact-fields.js';

describe('contact fields', () => {
  it('matches emails case-insensitively and ignoring surrounding space', () => {
    expect(emailKey(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(emailKey(null)).toBeNull();
    expect(emailKey('')).toBeNull();
  });

  it('merges embedded data: new values win, an empty value removes a key, null removes all', () => {
    expect(mergeEmbeddedData({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual({
      value: { a: '1', b: '3', c: '4' },
    });
    expect(mergeEmbeddedData({ a: '1' }, { a: '' })).toEqual({ value: null });
    expect(mergeEmbeddedData({ a: '1' }, null)).toEqual({ value: null });
    expect(mergeEmbeddedData({ a: '1' }, undefined)).toEqual({ value: { a: '1' } });
  });

  it('refuses a merge past 100 fields', () => {
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v']));
    expect(mergeEmbeddedData(hundred, { k0: 'changed' })).toHaveProperty('value');
    expect(mergeEmbeddedData(hundred, { extra: 'v' })).toEqual({
      problem: 'embeddedData must not have more than 100 fields',
    });
  });

  it('changes only the fields given, and the opt-out only when asked', () => {
    const row = newContactRow(
      { id: 'CID_x', organizationId: 'acme', directoryId: 'POOL_x', at: '2026-01-01T00:00:00Z' },
      { email: 'A@example.com', firstName: 'Ada', unsubscribed: true },
      null,
    );
    expect(row).toMatchObject({
      email_key: 'a@example.com',
      unsubscribed: 1,
      last_name: null,
      embedded_data: null,
    });
    const changed = changedContactRow(
      row,
      { lastName: 'Lovelace', firstName: null, unsubscribed: false },
      { team: 'x' },
      { at: '2026-02-01T00:00:00Z', withUnsubscribed: false },
    );
    expect(changed).toMatchObject({
      first_name: null,
      last_name: 'Lovelace',
      email: 'A@example.com',
      unsubscribed: 1,
      embedded_data: '{"team":"x"}',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-02-01T00:00:00Z',
    });
    expect(
      changedContactRow(row, { unsubscribed: false }, null, { at: 'x', withUnsubscribed: true }).unsubscribed,
    ).toBe(0);
  });
});
