import { describe, expect, it } from 'vitest';
import { browserFacts } from './meta-info.js';
import { isDate, isPhone, textProblem, toTextValidation } from './text-validation.js';

describe('text entry validation', () => {
  it('reads the QSF settings', () => {
    expect(toTextValidation({ Type: 'ContentType', ContentType: 'ValidEmail' })).toEqual({ kind: 'email' });
    expect(
      toTextValidation({ Type: 'ContentType', ContentType: 'ValidZip', ValidZipType: 'ValidUSZip' }),
    ).toEqual({
      kind: 'postal',
      region: 'us',
    });
    expect(toTextValidation({ Type: 'CharRange', MinChars: '2', MaxChars: '5' })).toEqual({
      kind: 'length',
      min: 2,
      max: 5,
    });
    expect(toTextValidation({ Type: 'MinChar', MinChars: '3', MaxChars: '9' })).toEqual({
      kind: 'length',
      min: 3,
    });
    // Numbers are the model's numeric validation, not this one.
    expect(toTextValidation({ Type: 'ContentType', ContentType: 'ValidNumber' })).toBeUndefined();
  });

  it('takes real dates only, in the format asked', () => {
    expect(isDate('29/02/2024', 'dd/mm/yyyy')).toBe(true);
    expect(isDate('29/02/2023', 'dd/mm/yyyy')).toBe(false);
    expect(isDate('02/29/2024', 'dd/mm/yyyy')).toBe(false);
    expect(isDate('2024-12-31', 'yyyy/mm/dd')).toBe(true);
    expect(isDate('12/31/24', 'mm/dd/yyyy')).toBe(false);
  });

  it('tells US from international phone numbers', () => {
    expect(isPhone('(212) 555-0199', 'us')).toBe(true);
    expect(isPhone('+1 212 555 0199', 'us')).toBe(true);
    expect(isPhone('(112) 555-0199', 'us')).toBe(false);
    expect(isPhone('+44 20 7946 0958', 'us')).toBe(false);
    expect(isPhone('+44 20 7946 0958', 'international')).toBe(true);
    expect(isPhone('+44 20', 'international')).toBe(false);
  });

  it('says what is wrong', () => {
    expect(textProblem({ kind: 'email' }, 'a@b')).toBe('Please enter a valid email address.');
    expect(textProblem({ kind: 'email' }, 'ada@example.org')).toBeUndefined();
    expect(textProblem({ kind: 'postal', region: 'ca' }, 'K1A 0B1')).toBeUndefined();
    expect(textProblem({ kind: 'postal', region: 'uk' }, 'SW1A 1AA')).toBeUndefined();
    expect(textProblem({ kind: 'postal', region: 'us' }, '9021')).toBe('Please enter a valid postal code.');
    expect(textProblem({ kind: 'length', min: 2 }, 'é')).toBe('Please enter at least 2 characters.');
  });
});

describe('meta info', () => {
  it('reads browser, version and system from a User-Agent', () => {
    const edge =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91';
    expect(browserFacts(edge)).toEqual({ browser: 'Edge', version: '120.0.2210.91', os: 'Windows NT 10.0' });
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    expect(browserFacts(safari)).toEqual({ browser: 'Safari', version: '17.1', os: 'iPhone 17.1' });
    expect(browserFacts('')).toEqual({ browser: '', version: '', os: '' });
  });
});
