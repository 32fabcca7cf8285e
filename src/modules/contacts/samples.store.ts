import { type Insertable, type Selectable, sql } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ContactRow } from './contact-fields.js';
import type { SamplesTable } from './contacts.tables.js';

export type SampleRow = Selectable<SamplesTable>;

export async function insertSample(db: Queryable, row: Insertable<SamplesTable>): Promise<void> {
  await db.insertInto('samples').values(row).execute();
}

/**
 * Fills a sample with `size` members of the list picked at random by the database (`random()` exists on
 * both engines), leaving out contacts opted out of the list or the directory. Answers how many it took.
 */
export async function fillSample(
  db: Queryable,
  scope: Scope,
  sample: { id: string; listId: string; size: number },
): Promise<number> {
  const org = scope.organizationId;
  const picked = db
    .selectFrom('mailing_list_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select([
      sql<string>`cast(${org} as text)`.as('organization_id'),
      sql<string>`cast(${sample.id} as text)`.as('sample_id'),
      'm.contact_id',
    ])
    .where('m.organization_id', '=', org)
    .where('m.mailing_list_id', '=', sample.listId)
    .where('m.unsubscribed', '=', 0)
    .where('c.unsubscribed', '=', 0)
    .orderBy(sql`random()`)
    .limit(sample.size);
  const result = await db
    .insertInto('sample_members')
    .columns(['organization_id', 'sample_id', 'contact_id'])
    .expression(picked)
    .executeTakeFirst();
  const taken = Number(result.numInsertedOrUpdatedRows ?? 0);
  await db
    .updateTable('samples')
    .set({ size: taken })
    .where('organization_id', '=', org)
    .where('id', '=', sample.id)
    .execute();
  return taken;
}

export function findSample(db: Queryable, scope: Scope, listId: string, sampleId: string) {
  return db
    .selectFrom('samples')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('mailing_list_id', '=', listId)
    .where('id', '=', sampleId)
    .executeTakeFirst();
}

export function listSamples(db: Queryable, scope: Scope, listId: string, page: Page): Promise<SampleRow[]> {
  return db
    .selectFrom('samples')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('mailing_list_id', '=', listId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

/** The contacts drawn into a sample, in contact id order. */
export function listSampleContacts(
  db: Queryable,
  scope: Scope,
  sampleId: string,
  page: Page,
): Promise<ContactRow[]> {
  return db
    .selectFrom('sample_members as s')
    .innerJoin('contacts as c', 'c.id', 's.contact_id')
    .selectAll('c')
    .where('s.organization_id', '=', scope.organizationId)
    .where('s.sample_id', '=', sampleId)
    .orderBy('s.contact_id')
    .$call(pageWindow(page))
    .execute();
}
