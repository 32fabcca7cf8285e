import { ApiError } from './errors.js';

export type UserType = 'UT_BRANDADMIN' | 'UT_PARTICIPANT';

/** Who is calling: resolved once per request from the token. */
export interface Principal {
  userId: string;
  organizationId: string;
  userType: UserType;
  /** The target-audience product variant (spec 1.7). */
  targetAudience: boolean;
}

/** What every store takes first, so an unscoped query cannot be written by accident. */
export interface Scope {
  organizationId: string;
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
