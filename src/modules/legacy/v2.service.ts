/**
 * The answers of the retired version 2 endpoints (spec 7.1, 9): 404 in the v3 envelope, naming the
 * version 3 call that replaces the requested command or saying that none does. The same for every
 * caller, so no authentication; the only piece of the request ever echoed is a command name that
 * passes `safeCommandName`.
 */
import { ApiError } from '../../http/errors.js';
import { listV2Commands, type V2Command, type V2CommandName } from './v2-commands.js';

/** Spec 9.2: version 2 calls stop existing after 31 March 2020. */
export const V2_SHUTDOWN_DATE = '2020-03-31';
const V2_GONE_FROM = new Date('2020-04-01T00:00:00Z');

const NAME_MAX = 64;
const SAFE_NAME = new RegExp(`^[A-Za-z][A-Za-z0-9_]{0,${NAME_MAX - 1}}$`);

const BY_LOWER_NAME = new Map(listV2Commands().map((command) => [command.name.toLowerCase(), command]));

/** A command name fit to repeat in a message (letters, digits, underscores; at most 64), else undefined. */
export function safeCommandName(raw: unknown): string | undefined {
  return typeof raw === 'string' && SAFE_NAME.test(raw) ? raw : undefined;
}

/** The table's entry for a command, whatever the case the client wrote it in. */
export function findV2Command(name: string): (V2Command & { name: V2CommandName }) | undefined {
  return BY_LOWER_NAME.get(name.toLowerCase());
}

/**
 * The `Request` parameter of a v2 call, whatever the case of its name (`Request`, `request`, `REQUEST`);
 * the first when repeated. `fields` is a parsed query string or form body.
 */
export function requestedCommand(fields: unknown): string | undefined {
  if (!fields || typeof fields !== 'object') return undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (key.toLowerCase() !== 'request') continue;
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
  }
  return undefined;
}

function shutdownSentence(now: Date): string {
  return now >= V2_GONE_FROM
    ? `Version 2 of the API was shut down on ${V2_SHUTDOWN_DATE}.`
    : `Version 2 of the API is retired and stops existing after ${V2_SHUTDOWN_DATE}; Fieldwork serves version 3 only.`;
}

const USE_V3 = 'Use the version 3 API under /API/v3 (reference at /API/docs).';

/** The sentence about one command: its replacement and note, or that it was obsoleted. */
function commandSentence(command: V2Command & { name: string }): string {
  const note = command.note ? ` ${command.note}` : '';
  if (command.replacement === null)
    return `${command.name} was obsoleted: it has no version 3 equivalent.${note}`;
  return `${command.name} is replaced by ${command.replacement}.${note}`;
}

/** The whole message for a v2 call naming `rawCommand` (any value a client sent, or none). */
export function retiredMessage(rawCommand: unknown, now: Date): string {
  const shutdown = shutdownSentence(now);
  const name = safeCommandName(rawCommand);
  if (name === undefined) return `${shutdown} ${USE_V3}`;
  const command = findV2Command(name);
  if (!command) return `${shutdown} "${name}" is not a version 2 command Fieldwork knows. ${USE_V3}`;
  return `${shutdown} ${commandSentence(command)}`;
}

/** The 404 every retired v2 call answers with (spec 7.1). */
export function retiredV2Call(rawCommand: unknown, now: Date): ApiError {
  return ApiError.of('FW_V2_1', retiredMessage(rawCommand, now));
}
