import type { EventTables } from './events/events.tables.js';
import type { BlobTables } from './files/blobs.tables.js';
import type { JobTables } from './jobs/jobs.tables.js';
import type { ContactTables } from './modules/contacts/contacts.tables.js';
import type { DirectoryTables } from './modules/contacts/directories.tables.js';
import type { DistributionTables } from './modules/distributions/distributions.tables.js';
import type { EngineTables } from './modules/engine/engine.tables.js';
import type { GraphicTables } from './modules/graphics/graphics.tables.js';
import type { GroupTables } from './modules/groups/groups.tables.js';
import type { MessageTables } from './modules/messages/messages.tables.js';
import type { OAuthTables } from './modules/oauth/oauth.tables.js';
import type { OrganizationTables } from './modules/organizations/organizations.tables.js';
import type { ResponseTables } from './modules/responses/responses.tables.js';
import type { SurveyTables } from './modules/surveys/surveys.tables.js';
import type { ThreeSixtyTables } from './modules/threesixties/threesixties.tables.js';
import type { DivisionTables } from './modules/users/divisions.tables.js';
import type { UserTables } from './modules/users/users.tables.js';

/**
 * Every table, as Kysely sees them. Each layer or module declares its own tables in its
 * `<family>.tables.ts`; they are gathered only here, so that db/ imports no module (issue 18).
 */
export interface Database
  extends OrganizationTables,
    DivisionTables,
    UserTables,
    GroupTables,
    DirectoryTables,
    EventTables,
    ContactTables,
    JobTables,
    SurveyTables,
    ResponseTables,
    EngineTables,
    MessageTables,
    GraphicTables,
    DistributionTables,
    OAuthTables,
    ThreeSixtyTables,
    BlobTables {}
