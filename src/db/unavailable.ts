/**
 * Errors that say "the database cannot answer now" rather than "this request is wrong": the server
 * restarted, failed over, is frozen or overloaded, or a connection to it dropped. The HTTP layer answers
 * them 503 with Retry-After (docs/errors.md FW_SRV_2); the request may succeed when retried.
 */

/** Node's socket errors when the server is down or the connection breaks. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception) is matched by prefix. 57P01 admin_shutdown
 * (restart, pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in
 * recovery), 57014 query_canceled (statement_timeout), 25P03 idle_in_transaction_session_timeout,
 * 53300 too_many_connections.
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '57014', '25P03', '53300']);

/** SQLite: still locked after busy_timeout. */
const SQLITE_BUSY = /^SQLITE_BUSY(_|$)/;

/** node-postgres and pg-pool raise these as plain Errors, known only by their message. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** True when `error` (or what caused it) means the database is unreachable, frozen or shutting down. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, cause, errors } = error as ErrorLike;
  if (typeof code === 'string' && isUnavailableCode(code)) return true;
  if (typeof message === 'string' && PG_MESSAGES.some((start) => message.startsWith(start))) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

function isUnavailableCode(code: string): boolean {
  return (
    SOCKET_CODES.has(code) ||
    POSTGRES_CODES.has(code) ||
    /^08[0-9A-Z]{3}$/.test(code) ||
    SQLITE_BUSY.test(code)
  );
}
