import { fromJson, toJson } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { isBrandAdmin, type Principal } from '../../http/principal.js';
import { groupMembership } from '../groups/groups.service.js';
import { allUsersInScope } from '../users/users.service.js';
import type { CreateMessageBody, MessageCategory, UpdateMessageBody } from './messages.schemas.js';
import * as store from './messages.store.js';

export { MESSAGE_CATEGORIES, type MessageCategory } from './messages.schemas.js';
export { type PipedLinks, type PipedRecipient, renderPipedText, unknownPipedFields } from './piped-text.js';

/** A library message as other modules (distributions) see it. */
export interface LibraryMessage {
  id: string;
  libraryId: string;
  description: string;
  category: MessageCategory;
  /** Language code → message HTML, as stored. */
  messages: Record<string, string>;
}

/** Per language; the HTML is stored as given (it is sanitised where it is rendered). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** The platform's codes (EN, ZH-S, PT-BR, PA-IN …) and BCP 47 ones (en, pt-BR, zh-Hant, pt_BR). */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/;

export async function listMessages(
  deps: Deps,
  principal: Principal,
  libraryId: string | undefined,
  filter: { category?: MessageCategory },
  page: Page,
): Promise<store.MessageSummaryRow[]> {
  const library = await reachableLibrary(deps.db, principal, libraryId);
  return store.listMessages(deps.db, principal, library, filter, page);
}

export function getMessage(
  deps: Deps,
  principal: Principal,
  messageId: string,
  libraryId: string | undefined,
): Promise<store.MessageRow> {
  return requireMessage(deps.db, principal, messageId, libraryId);
}

export async function createMessage(
  deps: Deps,
  principal: Principal,
  libraryId: string | undefined,
  body: CreateMessageBody,
): Promise<string> {
  checkTexts(body.messages);
  const library = await reachableLibrary(deps.db, principal, libraryId);
  const id = newId('MS');
  const now = deps.clock.now().toISOString();
  await store.insertMessage(deps.db, {
    id,
    organization_id: principal.organizationId,
    library_id: library,
    description: body.description,
    category: body.category,
    messages: toJson(body.messages),
    created_at: now,
    updated_at: now,
  });
  return id;
}

export async function updateMessage(
  deps: Deps,
  principal: Principal,
  messageId: string,
  libraryId: string | undefined,
  body: UpdateMessageBody,
): Promise<void> {
  const { description, category, messages } = body;
  if (description === undefined && category === undefined && messages === undefined) {
    throw ApiError.invalid('body', 'has nothing to change (description, category or messages)');
  }
  if (messages !== undefined) checkTexts(messages);
  await requireMessage(deps.db, principal, messageId, libraryId);
  const changed = await store.updateMessage(deps.db, principal, messageId, {
    ...(description === undefined ? {} : { description }),
    ...(category === undefined ? {} : { category }),
    ...(messages === undefined ? {} : { messages: toJson(messages) }),
    updated_at: deps.clock.now().toISOString(),
  });
  if (changed === 0) throw messageNotFound(messageId);
}

export async function deleteMessage(
  deps: Deps,
  principal: Principal,
  messageId: string,
  libraryId: string | undefined,
): Promise<void> {
  await requireMessage(deps.db, principal, messageId, libraryId);
  if ((await store.deleteMessage(deps.db, principal, messageId)) === 0) throw messageNotFound(messageId);
}

/** The spec's spelling takes `libraryId` in the query or the body; both may be given only if they agree. */
export function libraryIdOf(query: string | undefined, body: string | undefined): string | undefined {
  if (query !== undefined && body !== undefined && query !== body) {
    throw ApiError.invalid('libraryId', `differs between the query (${query}) and the body (${body})`);
  }
  return body ?? query;
}

/**
 * For the distributions module: a message of the organisation (in `libraryId` when given), whoever may
 * reach its library. Use `findReachableMessage` for a message a caller names.
 */
export async function findMessage(
  db: Queryable,
  scope: Scope,
  messageId: string,
  libraryId?: string,
): Promise<LibraryMessage | undefined> {
  const row = await store.findMessage(db, scope, messageId, libraryId);
  return row && toLibraryMessage(row);
}

/** A message the caller may use: in a library they may reach (their own, a group's they belong to, any for an admin). */
export async function findReachableMessage(
  db: Queryable,
  principal: Principal,
  messageId: string,
  libraryId?: string,
): Promise<LibraryMessage | undefined> {
  const row = await store.findMessage(db, principal, messageId, libraryId);
  return row && (await canReachLibrary(db, principal, row.library_id)) ? toLibraryMessage(row) : undefined;
}

/**
 * The HTML for a recipient's language: the same code (case, `-` or `_` aside), else the same primary
 * language (a `pt-BR` contact gets `PT`), else English, else the first language the message has.
 */
export function messageText(message: Pick<LibraryMessage, 'messages'>, language: string | null): string {
  const entries = Object.entries(message.messages);
  const norm = (code: string) => code.toLowerCase().replaceAll('_', '-');
  const primary = (code: string) => norm(code).split('-')[0];
  const wanted = language ? norm(language) : 'en';
  const found =
    entries.find(([code]) => norm(code) === wanted) ??
    entries.find(([code]) => primary(code) === primary(wanted)) ??
    entries.find(([code]) => primary(code) === 'en') ??
    entries[0];
  return found?.[1] ?? '';
}

/** Whether the caller may use a library: their own; a group's they belong to; any of theirs for an admin. */
export async function canReachLibrary(
  db: Queryable,
  principal: Principal,
  libraryId: string,
): Promise<boolean> {
  if (libraryId.startsWith('UR_')) {
    if (libraryId === principal.userId) return true;
    return isBrandAdmin(principal) && (await allUsersInScope(db, principal, [libraryId]));
  }
  if (libraryId.startsWith('GR_')) {
    const membership = await groupMembership(db, principal, libraryId, principal.userId);
    return membership !== undefined && (membership.member || isBrandAdmin(principal));
  }
  return false;
}

/** The library a call works in; one the caller may not reach answers as absent (404, never 403). */
async function reachableLibrary(db: Queryable, principal: Principal, libraryId: string | undefined) {
  const library = libraryId ?? principal.userId;
  if (!(await canReachLibrary(db, principal, library))) {
    throw ApiError.of('FW_LIB_1', `Library ${library} not found.`);
  }
  return library;
}

async function requireMessage(
  db: Queryable,
  principal: Principal,
  messageId: string,
  libraryId: string | undefined,
): Promise<store.MessageRow> {
  const library = await reachableLibrary(db, principal, libraryId);
  const row = await store.findMessage(db, principal, messageId, library);
  if (!row) throw messageNotFound(messageId, library);
  return row;
}

/** Language codes as keys, no language twice (`EN` and `en`), at most 1 MB of HTML each. */
function checkTexts(messages: Record<string, string>): void {
  const seen = new Map<string, string>();
  for (const [code, html] of Object.entries(messages)) {
    if (!LANGUAGE_CODE.test(code)) {
      throw ApiError.invalid(`messages.${code}`, 'is not a language code (like EN, en, pt-BR or ZH-S)');
    }
    const key = code.toLowerCase().replaceAll('_', '-');
    const twin = seen.get(key);
    if (twin !== undefined)
      throw ApiError.invalid('messages', `has ${twin} and ${code}, the same language twice`);
    seen.set(key, code);
    const bytes = Buffer.byteLength(html, 'utf8');
    if (bytes > MAX_MESSAGE_BYTES) {
      throw ApiError.invalid(
        `messages.${code}`,
        `is ${bytes} bytes; a message holds at most 1 MB (${MAX_MESSAGE_BYTES} bytes) per language`,
      );
    }
  }
}

function toLibraryMessage(row: store.MessageRow): LibraryMessage {
  return {
    id: row.id,
    libraryId: row.library_id,
    description: row.description,
    category: row.category as MessageCategory,
    messages: fromJson<Record<string, string>>(row.messages),
  };
}

function messageNotFound(messageId: string, libraryId?: string): ApiError {
  const where = libraryId ? ` in library ${libraryId}` : '';
  return ApiError.of('FW_MSG_1', `Message ${messageId} not found${where}.`);
}
