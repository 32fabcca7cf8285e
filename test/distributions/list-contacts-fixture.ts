import type { Kysely } from 'kysely';
import type { Database } from '../../src/tables.js';

/**
 * `count` contacts written straight into a directory and one of its lists, 500 rows a statement: the
 * crash-resume test and the distribution benchmark need thousands, which the API would add one by one.
 * Ids are `CID_<tag><n>`, names `Person<n> <Tag>`, e-mail `p<n>@example.com`.
 */
export async function insertListContacts(
  db: Kysely<Database>,
  target: { organizationId: string; directoryId: string; listId: string },
  count: number,
  tag: string,
): Promise<void> {
  const at = new Date().toISOString();
  const lastName = tag.charAt(0).toUpperCase() + tag.slice(1);
  for (let first = 0; first < count; first += 500) {
    const n = Math.min(500, count - first);
    const ids = Array.from({ length: n }, (_, i) => `CID_${tag}${String(first + i).padStart(10, '0')}`);
    await db
      .insertInto('contacts')
      .values(
        ids.map((id, i) => ({
          id,
          organization_id: target.organizationId,
          directory_id: target.directoryId,
          first_name: `Person${first + i}`,
          last_name: lastName,
          email: `p${first + i}@example.com`,
          email_key: `p${first + i}@example.com`,
          phone: null,
          ext_ref: null,
          language: null,
          unsubscribed: 0,
          bounced_at: null,
          embedded_data: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    await db
      .insertInto('mailing_list_members')
      .values(
        ids.map((id) => ({
          organization_id: target.organizationId,
          mailing_list_id: target.listId,
          contact_id: id,
          contact_lookup_id: id.replace('CID_', 'CGC_'),
          unsubscribed: 0,
          added_at: at,
        })),
      )
      .execute();
  }
}
