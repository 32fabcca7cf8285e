import { expect, it } from 'vitest';
import { clientErrorResponse } from './client-errors.js';

const parserError = (code: string) => Object.assign(new Error(code), { code });

function parse(response: string) {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  const [statusLine, ...headers] = head.split('\r\n');
  return { statusLine, headers, body, envelope: JSON.parse(body) };
}

// The slow-headers timeout (408) cannot be reached in a test without waiting out Node's 30 s check
// interval, so the answer it gets is checked here; the 431 and 400 go through a real socket in
// test/http/client-errors.test.ts.
it.each([
  ['ERR_HTTP_REQUEST_TIMEOUT', 'HTTP/1.1 408 Request Timeout', 'FW_VAL_6', '408 - Request Timeout'],
  [
    'HPE_HEADER_OVERFLOW',
    'HTTP/1.1 431 Request Header Fields Too Large',
    'FW_VAL_5',
    '431 - Request Header Fields Too Large',
  ],
  ['HPE_INVALID_METHOD', 'HTTP/1.1 400 Bad Request', 'FW_VAL_1', '400 - Bad Request'],
])('answers %s with a complete HTTP response in the envelope', (code, statusLine, errorCode, httpStatus) => {
  const response = parse(clientErrorResponse(parserError(code)));
  expect(response.statusLine).toBe(statusLine);
  expect(response.headers).toContain(`content-length: ${Buffer.byteLength(response.body)}`);
  expect(response.headers).toContain('connection: close');
  expect(response.envelope.meta.httpStatus).toBe(httpStatus);
  expect(response.envelope.meta.error.errorCode).toBe(errorCode);
  expect(response.headers).toContain(`x-request-id: ${response.envelope.meta.requestId}`);
});
