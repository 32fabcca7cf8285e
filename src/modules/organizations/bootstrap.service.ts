import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import { flag } from '../../db/json.js';
import type { Queryable } from '../../deps.js';
import { createDefaultDirectory } from '../contacts/directories.service.js';
import { insertNewUser, issueApiToken } from '../users/users.service.js';
import { countOrganizations, insertOrganization } from './organizations.store.js';

export interface BootstrapOptions {
  brandId: string;
  name?: string;
  targetAudience?: boolean;
  adminEmail?: string;
  /** The deployment's data center (`--datacenter`), which the organisation belongs to. */
  datacenter?: string;
}

export interface BootstrapResult {
  brandId: string;
  userId: string;
  apiToken: string;
  directoryId: string;
}

export class BootstrapError extends Error {}

export const BRAND_ID_PATTERN = /^[a-z][a-z0-9]{1,31}$/;

/** An organisation, its default directory and a brand administrator with a token, in one transaction. */
export async function bootstrapOrganization(
  db: Queryable,
  now: Date,
  options: BootstrapOptions,
): Promise<BootstrapResult> {
  const { brandId } = options;
  if (!BRAND_ID_PATTERN.test(brandId)) {
    throw new BootstrapError(
      `--brand must be a short lowercase word (a-z, 0-9, 2-32 characters), got "${brandId}"`,
    );
  }
  try {
    return await db.transaction().execute(async (trx) => {
      const scope = { organizationId: brandId };
      await insertOrganization(trx, {
        id: brandId,
        name: options.name ?? brandId,
        type: 'Standard',
        status: 'Active',
        target_audience: flag(options.targetAudience ?? false),
        created_at: isoSeconds(now),
        expiration_date: null,
        datacenter: options.datacenter ?? null,
      });
      const directoryId = await createDefaultDirectory(trx, scope, now);
      const userId = await insertNewUser(trx, scope, now, {
        username: `admin@${brandId}`,
        firstName: 'Brand',
        lastName: 'Administrator',
        userType: 'UT_BRANDADMIN',
        email: options.adminEmail ?? `admin@${brandId}.invalid`,
      });
      const apiToken = await issueApiToken(trx, scope, userId, now);
      return { brandId, userId, apiToken, directoryId };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new BootstrapError(`An organization with brand id "${brandId}" already exists`);
    throw error;
  }
}

async function isEmpty(db: Queryable): Promise<boolean> {
  return (await countOrganizations(db)) === 0;
}

/**
 * The first start's bootstrap: the organisation `fieldwork` if the store holds none, else nothing. Nodes
 * starting together over one empty PostgreSQL race here; the one that loses finds the store no longer
 * empty and goes on without a token to print.
 */
export async function bootstrapIfEmpty(
  db: Queryable,
  now: Date,
  datacenter?: string,
): Promise<BootstrapResult | undefined> {
  if (!(await isEmpty(db))) return undefined;
  try {
    return await bootstrapOrganization(db, now, { brandId: 'fieldwork', name: 'Fieldwork', datacenter });
  } catch (error) {
    if (error instanceof BootstrapError && !(await isEmpty(db))) return undefined;
    throw error;
  }
}
