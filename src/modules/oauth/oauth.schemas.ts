import { type Static, Type } from 'typebox';
import { idPattern } from '../../http/ids.js';
import { SCOPES } from '../../http/scopes.js';
import type { ClientRow } from './oauth.store.js';

const ScopeSchema = Type.String({ enum: [...SCOPES], description: 'manage:all, or read:/write: a family' });

export const CreateClientBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  userId: Type.Optional(
    Type.String({ pattern: idPattern('UR'), description: 'Acts as; default: the caller.' }),
  ),
  scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length }),
});
export type CreateClientBody = Static<typeof CreateClientBodySchema>;

export const CreatedClientSchema = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown only this once.' }),
});

export const ClientSchema = Type.Object({
  clientId: Type.String(),
  name: Type.String(),
  userId: Type.String(),
  scopes: Type.Array(Type.String()),
  creationDate: Type.String(),
});
export type Client = Static<typeof ClientSchema>;

export const ClientIdParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 100 }) });

/** The token endpoint's form fields (RFC 6749 4.4.2, 2.3.1); which are required is the service's to say. */
export interface TokenRequest {
  grant_type?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

export const TokenAnswerSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  scope: Type.String(),
});
export type TokenAnswer = Static<typeof TokenAnswerSchema>;

/** Scopes are stored space-separated, as OAuth writes them. */
export const scopeList = (text: string): string[] => text.split(' ').filter((scope) => scope !== '');

export function toClient(row: ClientRow): Client {
  return {
    clientId: row.id,
    name: row.name,
    userId: row.user_id,
    scopes: scopeList(row.scopes),
    creationDate: row.created_at,
  };
}
