import { isoSeconds } from '../../clock.js';
import type { Page } from '../../db/page.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { requireList } from './mailing-lists.service.js';
import * as store from './samples.store.js';

/**
 * A sample: `size` contacts of the list drawn at random and stored, so a distribution can go to the
 * same people later. Opted-out contacts are never drawn; a list smaller than `size` gives all it has.
 */
export async function createSample(
  deps: Deps,
  principal: Principal,
  listId: string,
  body: { name?: string; size: number },
): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    await requireList(trx, principal, { listId });
    const id = newId('SMP');
    const at = deps.clock.now().toISOString();
    await store.insertSample(trx, {
      id,
      organization_id: principal.organizationId,
      mailing_list_id: listId,
      name: body.name ?? `Sample of ${body.size} (${isoSeconds(new Date(at))})`,
      size: 0,
      created_at: at,
    });
    await store.fillSample(trx, principal, { id, listId, size: body.size });
    return id;
  });
}

export async function listSamples(deps: Deps, principal: Principal, listId: string, page: Page) {
  await requireList(deps.db, principal, { listId });
  return store.listSamples(deps.db, principal, listId, page);
}

export async function getSample(deps: Deps, principal: Principal, listId: string, sampleId: string) {
  await requireList(deps.db, principal, { listId });
  const row = await store.findSample(deps.db, principal, listId, sampleId);
  if (!row) throw ApiError.of('FW_CON_5', `Sample ${sampleId} not found.`);
  return row;
}

export async function listSampleContacts(
  deps: Deps,
  principal: Principal,
  listId: string,
  sampleId: string,
  page: Page,
) {
  await getSample(deps, principal, listId, sampleId);
  return store.listSampleContacts(deps.db, principal, sampleId, page);
}
