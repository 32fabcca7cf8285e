/**
 * Shared by the contacts benchmarks (plain JavaScript, so the import benchmark's child processes run
 * without a TypeScript loader): a deterministic contact for row `i`, as a CSV line and as the stored
 * row, so a baseline inserts exactly what the import writes.
 */
import { randomBytes } from 'node:crypto';

export const CSV_HEADER = 'email,firstName,lastName,phone,extRef,language,Region,Tier';

const REGIONS = ['north', 'south', 'east', 'west'];
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function contactFields(i) {
  return {
    email: `contact${i}@bench.example`,
    firstName: `First${i % 997}`,
    lastName: `Last${i % 1009}`,
    phone: `+1 555 ${String(i % 10_000).padStart(4, '0')}`,
    extRef: `EXT-${i}`,
    language: i % 5 === 0 ? 'fr' : 'en',
    embeddedData: { Region: REGIONS[i % 4], Tier: String(i % 3) },
  };
}

export function csvLine(i) {
  const c = contactFields(i);
  return [
    c.email,
    c.firstName,
    c.lastName,
    c.phone,
    c.extRef,
    c.language,
    c.embeddedData.Region,
    c.embeddedData.Tier,
  ].join(',');
}

function contactId() {
  return `CID_${Array.from(randomBytes(15), (byte) => ALPHABET[byte % 62]).join('')}`;
}

export function contactRow(i, organizationId, directoryId, at) {
  const c = contactFields(i);
  return {
    id: contactId(),
    organization_id: organizationId,
    directory_id: directoryId,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    email_key: c.email,
    phone: c.phone,
    ext_ref: c.extRef,
    language: c.language,
    unsubscribed: 0,
    bounced_at: null,
    embedded_data: JSON.stringify(c.embeddedData),
    created_at: at,
    updated_at: at,
  };
}
