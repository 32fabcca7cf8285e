import type { ContactRow } from '../src/modules/contacts/contact-fields.js';

export declare const CSV_HEADER: string;
export declare function contactFields(i: number): {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  extRef: string;
  language: string;
  embeddedData: { Region: string; Tier: string };
};
export declare function csvLine(i: number): string;
export declare function contactRow(
  i: number,
  organizationId: string,
  directoryId: string,
  at: string,
): ContactRow;
