/**
 * What every store takes first, so an unscoped query cannot be written by accident: the caller's
 * organisation. A principal is one (http/principal.ts), and so is a job's or the CLI's scope.
 */
export interface Scope {
  organizationId: string;
}
