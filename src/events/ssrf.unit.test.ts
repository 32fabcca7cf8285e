import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress } from './ssrf.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'not an address',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('allows %s', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('guardedLookup', () => {
  it('fails the lookup of a name that resolves to loopback, in both callback forms', async () => {
    for (const all of [false, true]) {
      const error = await new Promise<Error | null>((resolve) =>
        guardedLookup('localhost', { all }, (e) => resolve(e)),
      );
      expect(error?.message).toMatch(/^refused: localhost resolves to/);
    }
  });
});
