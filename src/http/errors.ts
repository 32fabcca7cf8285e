/**
 * Every error code Fieldwork answers with, in one table. The first group is what the real v3 service
 * sends (COMPAT.md "Envelope"); the rest are ours, in the same ABBREV_n style. docs/errors.md lists them
 * all, and a test fails when a code here is missing there.
 */
export const ERROR_CODES = {
  ATP_2: { status: 400, meaning: 'No X-API-TOKEN (or bearer token) in the request headers.' },
  DCD_7: { status: 401, meaning: 'The token is unknown, revoked, expired, or its user is disabled.' },
  'QMST_2.1': { status: 403, meaning: 'Authenticated, but the operation is not allowed to this caller.' },
  ESSG_2: { status: 404, meaning: 'Event subscription not found.' },
  GSI_2: { status: 404, meaning: 'Survey not found.' },
  PACC_6: { status: 404, meaning: 'Mailing list not found.' },
  GED_3: { status: 404, meaning: 'Distribution not found.' },
  FW_VAL_1: {
    status: 400,
    meaning: 'A field, parameter or header is missing or invalid; the message names it.',
  },
  FW_VAL_2: { status: 400, meaning: 'The request body is not valid JSON.' },
  FW_VAL_3: { status: 415, meaning: 'The request body has a content type this call does not take.' },
  FW_VAL_4: { status: 413, meaning: 'The request body is larger than this call takes.' },
  FW_VAL_5: { status: 431, meaning: 'The request headers are larger than the server takes (16 KB in all).' },
  FW_VAL_6: { status: 408, meaning: 'The request headers did not arrive in time.' },
  FW_ORG_1: { status: 404, meaning: 'Organization not found.' },
  FW_USR_1: { status: 404, meaning: 'User not found.' },
  FW_USR_2: { status: 409, meaning: "The username is already taken in the caller's organization." },
  FW_USR_3: {
    status: 409,
    meaning: 'The change would leave the organization without an active brand administrator.',
  },
  FW_DIV_1: { status: 404, meaning: 'Division not found.' },
  FW_DIV_2: { status: 409, meaning: 'A division with that name already exists.' },
  FW_GRP_1: { status: 404, meaning: 'Group not found.' },
  FW_GRP_2: { status: 409, meaning: 'A group with that name already exists.' },
  FW_RATE_1: { status: 429, meaning: 'Too many requests; retry after the number of seconds in Retry-After.' },
  FW_SRV_1: {
    status: 500,
    meaning: 'An unexpected error; the log line with the same requestId has the details.',
  },
  FW_SRV_2: { status: 503, meaning: 'The service is shutting down or its database is unreachable.' },
  FW_DIR_1: { status: 404, meaning: 'Directory not found.' },
  FW_CON_1: { status: 404, meaning: 'Contact not found (in that directory or mailing list).' },
  FW_CON_2: {
    status: 409,
    meaning: 'Another contact of the directory already has that extRef.',
  },
  FW_CON_3: {
    status: 400,
    meaning: 'The import file is malformed; nothing was imported. The message names the line and problem.',
  },
  FW_CON_4: { status: 404, meaning: 'Contact import not found.' },
  FW_CON_5: { status: 404, meaning: 'Sample not found.' },
  FW_EVT_1: { status: 404, meaning: 'Event delivery not found (in that subscription).' },
  FW_EVT_2: { status: 409, meaning: 'The event delivery is being attempted right now; retry it afterwards.' },
  FW_EVT_3: {
    status: 409,
    meaning: 'The event subscription is disabled (its receiver answered 410 Gone); create a new one.',
  },
  FW_SUR_1: {
    status: 400,
    meaning: 'The uploaded survey file is not a QSF document (JSON); nothing was stored.',
  },
  FW_SUR_2: {
    status: 400,
    meaning:
      'The survey is past a limit no real survey reaches (questions, choices, blocks, flow, nesting); nothing was stored.',
  },
  FW_SHR_1: { status: 404, meaning: 'The survey is not shared with that user or group.' },
  FW_RSP_1: { status: 404, meaning: 'Response not found (in that survey).' },
  FW_RSP_2: { status: 409, meaning: 'The survey session has already been recorded as a response.' },
  FW_RSP_3: { status: 404, meaning: 'Response update job not found (in that survey).' },
  FW_RSP_4: { status: 404, meaning: 'Uploaded file not found (in that response).' },
  FW_EXP_1: { status: 404, meaning: 'Response export not found, or its file expired (export again).' },
  FW_EXP_2: {
    status: 409,
    meaning: 'The response export is not complete (still in progress, or failed); its file is not available.',
  },
  FW_IMP_1: { status: 404, meaning: 'Response import not found.' },
  FW_IMP_2: {
    status: 400,
    meaning:
      'The import file is not the csv/tsv export layout of the survey (header rows); nothing was imported.',
  },
  FW_V2_1: {
    status: 404,
    meaning:
      'Version 2 of the API was shut down on 2020-03-31; the message names the version 3 call that replaces the command, or says none does.',
  },
  FW_LIB_1: {
    status: 404,
    meaning: 'Library not found (no such user or group library the caller may reach).',
  },
  FW_MSG_1: { status: 404, meaning: 'Library message not found (in that library).' },
  FW_GRA_1: {
    status: 400,
    meaning:
      'The uploaded file is not a PNG, JPEG, GIF or WebP image (read from its bytes); nothing was stored.',
  },
  FW_GRA_2: { status: 404, meaning: 'Graphic not found.' },
  FW_GRA_3: {
    status: 409,
    meaning:
      'A graphic of that id already exists (graphic ids are unique on the server: the public URL names a graphic by its id alone); nothing was stored.',
  },
  FW_DST_1: {
    status: 400,
    meaning: 'SMS distributions are not available: this server sends e-mail only (it has no SMS transport).',
  },
  FW_DST_2: {
    status: 409,
    meaning: 'The distribution is being sent or was sent; only one not sent yet can be canceled.',
  },
  FW_TOK_1: {
    status: 401,
    meaning: 'The OAuth access token has expired (they last an hour); request a new one at /oauth2/token.',
  },
  FW_OAU_1: { status: 404, meaning: 'OAuth client not found.' },
  FW_DC_1: {
    status: 401,
    meaning:
      "The OAuth access token belongs to another data center; the message names that data center's host.",
  },
  FW_DC_2: {
    status: 502,
    meaning: 'The call was forwarded to the data center holding the account, which did not answer; retry.',
  },
  FW_DEF_1: { status: 404, meaning: 'Question not found (in that survey definition).' },
  FW_DEF_2: { status: 404, meaning: 'Block not found (in that survey definition).' },
  FW_DEF_3: { status: 404, meaning: 'Flow element not found (in that survey flow).' },
  FW_DEF_4: { status: 404, meaning: 'Survey version not found.' },
  FW_360_1: { status: 404, meaning: '360 not found.' },
  FW_360_2: { status: 404, meaning: 'Subject not found (in that 360).' },
  FW_360_3: { status: 404, meaning: 'Nomination not found (for that subject).' },
  FW_360_4: {
    status: 409,
    meaning: 'The relationship already has the most evaluators the workflow allows for the subject.',
  },
  FW_360_5: { status: 409, meaning: 'That e-mail address is already nominated for the subject.' },
  FW_SES_1: { status: 404, meaning: 'Survey session not found (in that survey).' },
  FW_SES_2: {
    status: 409,
    meaning:
      'The survey session has ended (recorded as a response, or ended by a full quota); nothing was changed.',
  },
  FW_SES_3: {
    status: 403,
    meaning: 'The survey is not taking responses (inactive, not yet started, or expired).',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type: a status, a v3 error code (none only for unknown routes), and a message for the caller. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | undefined,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Fastify's name for the status, read by error handlers that are not ours (the survey pages'). */
  get statusCode(): number {
    return this.status;
  }

  static of(code: ErrorCode, message: string): ApiError {
    return new ApiError(ERROR_CODES[code].status, code, message);
  }

  static invalid(field: string, problem: string): ApiError {
    return ApiError.of('FW_VAL_1', `Invalid request: ${field} ${problem}.`);
  }

  static forbidden(): ApiError {
    return ApiError.of('QMST_2.1', 'The operation is forbidden.');
  }
}
