/** The error codes of the token endpoint (RFC 6749 section 5.2) that Fieldwork answers. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_scope'
  | 'unsupported_grant_type';

/**
 * A refusal of the token endpoint: answered as RFC 6749's `{error, error_description}`, not the v3
 * envelope, because OAuth client libraries read that shape. `invalid_client` is a 401 that names the
 * authentication scheme (`WWW-Authenticate: Basic`); the rest are 400s.
 */
export class OAuthError extends Error {
  readonly status: number;

  constructor(
    readonly code: OAuthErrorCode,
    description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = code === 'invalid_client' ? 401 : 400;
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}
