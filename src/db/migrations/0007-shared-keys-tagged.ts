import { type Kysely, sql } from 'kysely';

// A subscription's sharedKey is now kept sealed (AES-256-GCM, `v1:…`, src/events/sealed-secret.ts). The
// key that seals lives outside the database (FIELDWORK_SECRET_KEY or the data directory), so migrations,
// which see only the database, cannot seal: this one tags every key stored so far as clear text (`v0:`),
// and each node seals the tagged keys when it starts (sealStoredSharedKeys). The tag keeps a clear key
// that happens to start with `v1:` from being taken for a sealed one.

// Written against Kysely<any> so the migration stays frozen in time whatever the schema types become.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update event_subscriptions set shared_key = 'v0:' || shared_key where shared_key is not null`.execute(
    db,
  );
}

// Sealed keys cannot be opened here either: down only removes the tag of keys not sealed yet.
// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`update event_subscriptions set shared_key = substr(shared_key, 4)
    where substr(shared_key, 1, 3) = 'v0:'`.execute(db);
}
