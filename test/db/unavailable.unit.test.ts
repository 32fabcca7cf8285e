import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { toApiError } from '../../src/http/error-handler.js';
import { LoopFailureLog } from '../../src/workers.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['refused (server down)', withCode('ECONNREFUSED')],
    ['reset (connection dropped)', withCode('ECONNRESET')],
    ['admin_shutdown (restart, pg_terminate_backend)', withCode('57P01')],
    ['crash_shutdown', withCode('57P02')],
    ['cannot_connect_now (starting up)', withCode('57P03')],
    ['statement_timeout', withCode('57014')],
    ['idle_in_transaction_session_timeout', withCode('25P03')],
    ['too_many_connections', withCode('53300')],
    ['connection_failure (class 08)', withCode('08006')],
    ['SQLite still locked after busy_timeout', withCode('SQLITE_BUSY')],
    ['pg: connection lost', new Error('Connection terminated unexpectedly')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg: frozen server', new Error('Query read timeout')],
    [
      'pg: a dropped client reused',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a refusal inside an AggregateError', new AggregateError([withCode('ECONNREFUSED')], 'connect failed')],
    ['a refusal as the cause', new Error('wrapped', { cause: withCode('ECONNREFUSED') })],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('leaves %s alone', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('toApiError', () => {
  it('answers an unavailable database with 503 FW_SRV_2 and Retry-After, anything else unknown with 500', () => {
    const unavailable = toApiError(withCode('57P01', 'terminating connection due to administrator command'));
    expect(unavailable).toMatchObject({ status: 503, code: 'FW_SRV_2' });
    expect(Number(unavailable.headers['retry-after'])).toBeGreaterThan(0);
    expect(toApiError(new Error('boom'))).toMatchObject({ status: 500, code: 'FW_SRV_1' });
  });
});

describe('LoopFailureLog', () => {
  it('writes the first failure of an outage, not every poll during it, and every other failure', () => {
    const written: unknown[] = [];
    const log = new LoopFailureLog((error) => written.push(error));
    const refused = withCode('ECONNREFUSED');
    const bug = new Error('a bug');
    for (let poll = 0; poll < 5; poll++) log.failed(refused);
    expect(written).toEqual([refused]);
    log.failed(bug);
    log.failed(bug);
    expect(written).toEqual([refused, bug, bug]);
    log.failed(refused); // a new outage after another failure
    log.succeeded();
    log.failed(refused); // and after a recovery
    expect(written).toEqual([refused, bug, bug, refused, refused]);
  });
});
