import type { Migration } from 'kysely';
import * as identity from './0001-identity.js';
import * as events from './0002-events.js';
import * as contacts from './0003-contacts.js';
import * as jobs from './0004-jobs.js';
import * as surveys from './0005-surveys.js';
import * as engine from './0006-engine.js';
import * as sharedKeysTagged from './0007-shared-keys-tagged.js';
import * as usernamesPerOrganization from './0008-usernames-per-organization.js';
import * as blobs from './0009-blobs.js';
import * as messages from './0010-messages.js';
import * as graphics from './0011-graphics.js';
import * as distributions from './0012-distributions.js';
import * as oauth from './0013-oauth.js';
import * as claimOrder from './0014-claim-order.js';
import * as surveyTaking from './0015-survey-taking.js';
import * as threesixties from './0016-threesixties.js';
import * as contactOrder from './0017-contact-order.js';
import * as surveyVersions from './0018-survey-versions.js';
import * as responseVersion from './0019-response-version.js';
import * as sessionStartedFor from './0020-session-started-for.js';
import * as surveyCollaborations from './0021-survey-collaborations.js';
import * as presentationCounts from './0022-presentation-counts.js';
import * as userResponseCounts from './0023-user-response-counts.js';
import * as contactLookups from './0024-contact-lookups.js';
import * as responseExportJson from './0025-response-export-json.js';

/** Every migration, in order. Listed in code (not read from disk) so the built CLI carries them. */
export const migrations: Record<string, Migration> = {
  '0001-identity': identity,
  '0002-events': events,
  '0003-contacts': contacts,
  '0004-jobs': jobs,
  '0005-surveys': surveys,
  '0006-engine': engine,
  '0007-shared-keys-tagged': sharedKeysTagged,
  '0008-usernames-per-organization': usernamesPerOrganization,
  '0009-blobs': blobs,
  '0010-messages': messages,
  '0011-graphics': graphics,
  '0012-distributions': distributions,
  '0013-oauth': oauth,
  '0014-claim-order': claimOrder,
  '0015-survey-taking': surveyTaking,
  '0016-threesixties': threesixties,
  '0017-contact-order': contactOrder,
  '0018-survey-versions': surveyVersions,
  '0019-response-version': responseVersion,
  '0020-session-started-for': sessionStartedFor,
  '0021-survey-collaborations': surveyCollaborations,
  '0022-presentation-counts': presentationCounts,
  '0023-user-response-counts': userResponseCounts,
  '0024-contact-lookups': contactLookups,
  '0025-response-export-json': responseExportJson,
};
