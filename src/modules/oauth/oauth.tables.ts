/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text; scopes as space-separated text. */
export interface OAuthClientsTable {
  /** The client id: 32 hex characters. */
  id: string;
  organization_id: string;
  /** The user the client acts as. */
  user_id: string;
  name: string;
  /** SHA-256 of the secret (decision 0002); the secret itself is shown once. */
  secret_hash: string;
  scopes: string;
  created_at: string;
}

export interface OAuthTokensTable {
  /** SHA-256 of the access token. */
  token_hash: string;
  organization_id: string;
  client_id: string;
  /** What this token was granted: the client's scopes or a subset. */
  scopes: string;
  expires_at: string;
  created_at: string;
}

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_tokens: OAuthTokensTable;
}
