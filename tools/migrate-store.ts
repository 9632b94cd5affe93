/**
 * `npm run store:migrate`: brings the configured PostgreSQL database's schema to this release's version and exits,
 * so that a rolling deploy migrates once, ahead of the instances, instead of the first instance of the new release
 * doing it while it starts (each instance still migrates at start when it finds the schema behind: the same step,
 * idempotent, under an advisory lock, so running both or several at once is safe). Reads the variables the service
 * reads (DATABASE_URL, DATABASE_TIMEOUT_MS, STORAGE, MONGODB_URI); the embedded store and MongoDB have nothing to
 * migrate ahead and say so. Prints one line; exit 1 with one line (never the URL's password) when it cannot.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/infrastructure/config/config.js';
import { PostgresStore } from '../src/infrastructure/postgres/postgres-store.js';

const SETTINGS = ['STORAGE', 'DATABASE_URL', 'DATABASE_TIMEOUT_MS', 'MONGODB_URI'] as const;

/** Migrates the store `env` configures; returns the line to print. */
export async function migrateStore(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  // Only the store's own settings: a migration job need not carry the service's keys and production settings.
  const { storage } = loadConfig(Object.fromEntries(SETTINGS.map((name) => [name, env[name]])));
  if (storage.kind !== 'postgres') {
    return `store:migrate: nothing to migrate ahead for STORAGE=${storage.kind} (its layout is made when the service opens it)`;
  }
  const store = await PostgresStore.open({ url: storage.postgres.url ?? '', timeoutMs: storage.postgres.timeoutMs });
  await store.close();
  const { before, after, known } = store.schema;
  if (after > known) return `store:migrate: the schema is at version ${after}, newer than this release's ${known} (a newer release migrated it; its migrations only add, so this release runs on it)`;
  return before === after ? `store:migrate: the schema is at version ${after} already` : `store:migrate: migrated the schema from version ${before} to ${after}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(resolve(process.argv[1]))).href) {
  migrateStore().then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(`store:migrate: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
