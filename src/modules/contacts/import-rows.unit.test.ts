import { describe, expect, it } from 'vitest';
import { toContactInput } from './import-rows.js';

const row = (fields: Record<string, unknown>, embedded?: Record<string, string>) =>
  toContactInput({ row: 1, fields, ...(embedded ? { embedded } : {}) });

describe('an import row', () => {
  it('becomes a contact, empty values left out', () => {
    expect(
      row({ email: ' a@example.com ', firstName: '', lastName: 'Lee', language: 'en' }, { Team: 'Blue' }),
    ).toEqual({
      input: { email: 'a@example.com', lastName: 'Lee', language: 'en', embeddedData: { Team: 'Blue' } },
    });
  });

  it('reads externalDataReference as extRef, and yes/no, 1/0, true/false as unsubscribed', () => {
    expect(row({ externalDataReference: 'E1', unsubscribed: 'Yes' })).toEqual({
      input: { extRef: 'E1', unsubscribed: true },
    });
    expect(row({ extRef: 'E1', unsubscribed: '0' })).toEqual({
      input: { extRef: 'E1', unsubscribed: false },
    });
    expect(row({ extRef: 'E1', unsubscribed: true })).toEqual({
      input: { extRef: 'E1', unsubscribed: true },
    });
    expect(row({ extRef: 'E1', unsubscribed: 'maybe' })).toEqual({
      reason: 'unsubscribed must be true or false (or 1 or 0)',
    });
  });

  it('needs an email or an extRef', () => {
    expect(row({ firstName: 'Nobody', phone: '123' })).toHaveProperty('reason');
  });

  it('fails with the rule it breaks, naming the field', () => {
    const bad = (fields: Record<string, unknown>) => (row(fields) as { reason: string }).reason;
    expect(bad({ email: 'nope' })).toMatch(/^email /);
    expect(bad({ email: 'a@example.com', language: 'english!' })).toMatch(/^language /);
    expect(bad({ email: 'a@example.com', firstName: 'x'.repeat(201) })).toMatch(/^firstName /);
    expect(bad({ email: 'a@example.com', embeddedData: { k: { deep: 1 } } })).toMatch(/^embeddedData/);
    expect(bad({ email: 'a@example.com', embeddedData: { k: 'v'.repeat(1025) } })).toMatch(/^embeddedData/);
  });

  it('turns JSON numbers and booleans in embedded data into strings', () => {
    expect(row({ email: 'a@example.com', embeddedData: { n: 3, ok: false, s: 'x' } })).toEqual({
      input: { email: 'a@example.com', embeddedData: { n: '3', ok: 'false', s: 'x' } },
    });
  });
});
