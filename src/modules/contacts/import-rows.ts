import { Compile } from 'typebox/compile';
import { unstorableText } from '../../db/storable-text.js';
import type { ContactInput } from './contact-fields.js';
import { ContactFieldsSchema } from './contacts.schemas.js';
import type { ImportRecord } from './import-files.js';

/** The same rules as the API's contact body (one schema), compiled once for a million rows. */
const checkContact = Compile(ContactFieldsSchema);

const TRUE = new Set(['1', 'true', 'yes', 'y']);
const FALSE = new Set(['0', 'false', 'no', 'n']);

/** A contact ready to write, or the reason its row fails (the rest of the file still imports). */
export type RowOutcome = { input: ContactInput } | { reason: string };

export function toContactInput(record: ImportRecord): RowOutcome {
  const { fields } = record;
  const candidate: Record<string, unknown> = {};
  for (const name of ['firstName', 'lastName', 'email', 'phone', 'language'] as const) {
    const value = given(fields[name]);
    if (value !== undefined) candidate[name] = value;
  }
  const extRef = given(fields.extRef) ?? given(fields.externalDataReference);
  if (extRef !== undefined) candidate.extRef = extRef;
  const unsubscribed = given(fields.unsubscribed);
  if (unsubscribed !== undefined) {
    const flag = typeof unsubscribed === 'string' ? toFlag(unsubscribed) : unsubscribed;
    if (flag === undefined) return { reason: 'unsubscribed must be true or false (or 1 or 0)' };
    candidate.unsubscribed = flag;
  }
  const embedded = record.embedded ?? scalarsAsStrings(given(fields.embeddedData));
  if (embedded !== undefined && Object.keys(embedded as object).length > 0) candidate.embeddedData = embedded;
  if (candidate.email === undefined && candidate.extRef === undefined) {
    return { reason: 'a contact needs an email or an extRef, to be found again on the next import' };
  }
  const unstorable = unstorableField(candidate);
  if (unstorable !== undefined) return { reason: unstorable };
  if (!checkContact.Check(candidate)) return { reason: describeFirstError(candidate) };
  return { input: candidate as ContactInput };
}

/** The first text of the contact that no engine stores as given (a NUL, a lone surrogate), named. */
function unstorableField(candidate: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(candidate)) {
    const problem = typeof value === 'string' ? unstorableText(value) : undefined;
    if (problem !== undefined) return `${name} ${problem}`;
  }
  const embedded = candidate.embeddedData;
  if (typeof embedded !== 'object' || embedded === null) return undefined;
  for (const [key, value] of Object.entries(embedded)) {
    const keyProblem = unstorableText(key);
    if (keyProblem !== undefined) return `an embeddedData field name ${keyProblem}`;
    const problem = typeof value === 'string' ? unstorableText(value) : undefined;
    if (problem !== undefined) return `embeddedData.${key} ${problem}`;
  }
  return undefined;
}

/** null and empty strings mean "not given" in a file. */
function given(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  return value;
}

/** Numbers and booleans in JSON embedded data become strings, as the API's validator makes them. */
function scalarsAsStrings(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([key, v]) => [
    key,
    typeof v === 'number' || typeof v === 'boolean' ? String(v) : v,
  ]);
  return Object.fromEntries(entries);
}

function toFlag(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  return undefined;
}

function describeFirstError(candidate: Record<string, unknown>): string {
  const [error] = checkContact.Errors(candidate);
  if (!error) return 'the contact is invalid';
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  return `${path || 'contact'} ${error.message}`;
}
