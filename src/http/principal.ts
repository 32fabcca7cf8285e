import type { Scope } from '../db/scope.js';
import { ApiError } from './errors.js';

export type UserType = 'UT_BRANDADMIN' | 'UT_PARTICIPANT';

/** Who is calling: resolved once per request from the token. */
export interface Principal extends Scope {
  userId: string;
  organizationId: string;
  userType: UserType;
  /** The target-audience product variant (spec 1.7). */
  targetAudience: boolean;
  /** An OAuth access token's scopes (http/scopes.ts); absent for an API token, which may do everything. */
  scopes?: readonly string[];
  /** The data center the organisation belongs to (spec 1.4); absent: this deployment's. */
  datacenter?: string;
}

export function isBrandAdmin(principal: Principal): boolean {
  return principal.userType === 'UT_BRANDADMIN';
}

export function requireBrandAdmin(principal: Principal): void {
  if (!isBrandAdmin(principal)) throw ApiError.forbidden();
}

export function requireTargetAudience(principal: Principal): void {
  if (!principal.targetAudience) throw ApiError.forbidden();
}
