import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { type IdPrefix, newIds } from '../../http/ids.js';
import {
  type ContactInput,
  type ContactRow,
  changedContactRow,
  emailKey,
  mergeEmbeddedData,
  newContactRow,
  parseEmbeddedData,
} from './contact-fields.js';
import { BATCH_ROWS, listByEmailKeys, listByExtRefs, saveContacts } from './contacts.store.js';
import { saveMembers } from './members.store.js';

/** Where contacts go: a directory, and a list of it when given. */
export interface UpsertTarget {
  scope: Scope;
  directoryId: string;
  listId?: string;
  at: string;
  /** `CID` through directory paths, `MLRP` through the legacy list paths (COMPAT.md "Identifiers"). */
  idPrefix: Extract<IdPrefix, 'CID' | 'MLRP'>;
}

export interface UpsertOutcome {
  /** Per input: the contact written, or why that input failed. */
  results: ({ contactId: string; added: boolean } | { reason: string })[];
  added: number;
  updated: number;
}

/**
 * Adds or updates contacts, matching each on its extRef when it has one and otherwise on its email
 * (case-insensitive) within the directory, so importing a file twice updates and never duplicates.
 * Inputs later in the batch see the earlier ones. `unsubscribed` applies to the list when there is one,
 * to the directory otherwise. Writes in a few statements per batch; run it inside a transaction.
 */
export async function upsertContacts(
  db: Queryable,
  target: UpsertTarget,
  inputs: ContactInput[],
): Promise<UpsertOutcome> {
  const { byExtRef, byEmail } = await findExisting(db, target, inputs);
  const changed = new Map<string, ContactRow>();
  const outcome: UpsertOutcome = { results: [], added: 0, updated: 0 };
  const withUnsubscribed = target.listId === undefined;
  // One identifier drawn per input, all at once; an input that updates a contact leaves its own unused.
  const ids = newIds(target.idPrefix, inputs.length);
  for (const [index, input] of inputs.entries()) {
    const key = emailKey(input.email);
    const found = input.extRef ? byExtRef.get(input.extRef) : key ? byEmail.get(key) : undefined;
    const current = found ? (changed.get(found.id) ?? found) : undefined;
    const embedded = mergeEmbeddedData(
      current ? parseEmbeddedData(current.embedded_data) : null,
      input.embeddedData,
    );
    if ('problem' in embedded) {
      outcome.results.push({ reason: embedded.problem });
      continue;
    }
    const row = current
      ? changedContactRow(current, input, embedded.value, { at: target.at, withUnsubscribed })
      : newContactRow(
          {
            id: ids[index] as string,
            organizationId: target.scope.organizationId,
            directoryId: target.directoryId,
            at: target.at,
          },
          withUnsubscribed ? input : { ...input, unsubscribed: false },
          embedded.value,
        );
    changed.set(row.id, row);
    if (row.ext_ref) byExtRef.set(row.ext_ref, row);
    if (row.email_key && !byEmail.has(row.email_key)) byEmail.set(row.email_key, row);
    outcome.results.push({ contactId: row.id, added: !current });
    if (current) outcome.updated++;
    else outcome.added++;
  }
  const rows = [...changed.values()];
  for (let i = 0; i < rows.length; i += BATCH_ROWS) await saveContacts(db, rows.slice(i, i + BATCH_ROWS));
  if (target.listId !== undefined) await addToList(db, target, inputs, outcome);
  return outcome;
}

async function findExisting(db: Queryable, target: UpsertTarget, inputs: ContactInput[]) {
  const extRefs = new Set<string>();
  const keys = new Set<string>();
  for (const input of inputs) {
    if (input.extRef) extRefs.add(input.extRef);
    else if (input.email) keys.add(emailKey(input.email) as string);
  }
  const byExtRef = new Map<string, ContactRow>();
  const byEmail = new Map<string, ContactRow>();
  for (const chunk of chunks([...extRefs])) {
    for (const row of await listByExtRefs(db, target.scope, target.directoryId, chunk)) {
      byExtRef.set(row.ext_ref as string, row);
    }
  }
  for (const chunk of chunks([...keys])) {
    // Oldest first: when several contacts share an email, the first one made is the match.
    for (const row of await listByEmailKeys(db, target.scope, target.directoryId, chunk)) {
      if (!byEmail.has(row.email_key as string)) byEmail.set(row.email_key as string, row);
    }
  }
  return { byExtRef, byEmail };
}

/** Memberships for every contact written; opt-outs set only where the input gave one. */
async function addToList(
  db: Queryable,
  target: UpsertTarget,
  inputs: ContactInput[],
  outcome: UpsertOutcome,
) {
  const setting = new Map<string, boolean>();
  const plain = new Set<string>();
  outcome.results.forEach((result, index) => {
    if (!('contactId' in result)) return;
    const unsubscribed = inputs[index]?.unsubscribed;
    if (unsubscribed === undefined) {
      if (!setting.has(result.contactId)) plain.add(result.contactId);
    } else {
      setting.set(result.contactId, unsubscribed);
      plain.delete(result.contactId);
    }
  });
  const lookupIds = newIds('CGC', plain.size + setting.size);
  const member = (contactId: string, unsubscribed: boolean) => ({
    organization_id: target.scope.organizationId,
    mailing_list_id: target.listId as string,
    contact_id: contactId,
    contact_lookup_id: lookupIds.pop() as string,
    unsubscribed: unsubscribed ? 1 : 0,
    added_at: target.at,
  });
  for (const chunk of chunks([...plain]))
    await saveMembers(
      db,
      chunk.map((id) => member(id, false)),
      false,
    );
  for (const chunk of chunks([...setting])) {
    await saveMembers(
      db,
      chunk.map(([id, unsubscribed]) => member(id, unsubscribed)),
      true,
    );
  }
}

function chunks<T>(items: T[], size = BATCH_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
