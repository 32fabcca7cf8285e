import { describe, expect, it } from 'vitest';
import { hashSecret, sameHash } from '../../secret-hash.js';
import {
  basicCredentials,
  datacenterOfAccessToken,
  grantedScopes,
  newAccessToken,
  newClientId,
  newClientSecret,
} from './credentials.js';
import { OAuthError } from './oauth-error.js';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('client credentials and access tokens', () => {
  it('makes ids, secrets and tokens of the documented shapes, never the same twice', () => {
    expect(newClientId()).toMatch(/^[0-9a-f]{32}$/);
    expect(newClientSecret()).toMatch(/^[A-Za-z0-9]{64}$/);
    const token = newAccessToken('fra1');
    expect(token).toMatch(/^fra1\.[A-Za-z0-9_-]{43}$/);
    expect(newAccessToken('fra1')).not.toBe(token);
  });

  it('reads the issuing data center of an access token, and nothing from an API token', () => {
    expect(datacenterOfAccessToken(newAccessToken('iad1'))).toBe('iad1');
    expect(datacenterOfAccessToken('A'.repeat(40))).toBeUndefined();
    expect(datacenterOfAccessToken('fra1.short')).toBeUndefined();
  });

  it('compares hashes in constant time, and tells different ones apart', () => {
    expect(hashSecret('s')).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(hashSecret('s'), hashSecret('s'))).toBe(true);
    expect(sameHash(hashSecret('s'), hashSecret('t'))).toBe(false);
    expect(sameHash(hashSecret('s'), '')).toBe(false);
  });
});

describe('HTTP Basic client authentication (RFC 6749 2.3.1)', () => {
  it('reads id and secret, form-decoded, in any case of the scheme', () => {
    expect(basicCredentials(basic('abc:s3cret'))).toEqual({ clientId: 'abc', clientSecret: 's3cret' });
    expect(basicCredentials(basic('a%3Ab:x+y%25'))).toEqual({ clientId: 'a:b', clientSecret: 'x y%' });
    expect(basicCredentials(`basic ${Buffer.from('i:s').toString('base64')}`)).toEqual({
      clientId: 'i',
      clientSecret: 's',
    });
  });

  it('is absent without a Basic header, and invalid_client when it is malformed', () => {
    expect(basicCredentials(undefined)).toBeUndefined();
    expect(basicCredentials('Bearer xyz')).toBeUndefined();
    expect(() => basicCredentials(basic('no-colon'))).toThrow(OAuthError);
    expect(() => basicCredentials(basic('id:%E0%A4%A'))).toThrow(/form-encoded/);
  });
});

describe('granted scopes', () => {
  const client = ['read:surveys', 'write:surveys'];
  it("grants all of the client's when none are asked for", () => {
    expect(grantedScopes(undefined, client)).toEqual(client);
    expect(grantedScopes('  ', client)).toEqual(client);
  });

  it('grants a subset, once each; manage:all covers any known scope', () => {
    expect(grantedScopes('read:surveys read:surveys', client)).toEqual(['read:surveys']);
    expect(grantedScopes('read:users write:graphics', ['manage:all'])).toEqual([
      'read:users',
      'write:graphics',
    ]);
  });

  it('refuses unknown scopes and scopes beyond the client’s with invalid_scope', () => {
    for (const asked of ['read:everything', 'read:users', 'manage:all read:surveys']) {
      const error = (() => {
        try {
          grantedScopes(asked, client);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).body().error).toBe('invalid_scope');
      expect((error as OAuthError).status).toBe(400);
    }
  });
});
