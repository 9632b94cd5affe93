import { expect } from 'chai';
import pg from 'pg';
import { openStorage } from '../../src/infrastructure/postgres/postgres-storage.js';
import { MIGRATIONS, PostgresStore } from '../../src/infrastructure/postgres/postgres-store.js';
import { describeWithPostgres } from '../support/postgres.js';
import { TEST_PERSONAL_DATA_KEYS } from '../support/storages.js';
import { TEST_SCHEMA } from '../support/test-schema.js';
import { storeContract } from './store.contract.js';
import { secondFactorContract } from './second-factor.contract.js';
import { passkeyContract } from './passkey.contract.js';
import { identityContract } from './identity.contract.js';
import { oauthFlowContract } from './oauth-flow.contract.js';
import { oidcAdapterContract } from './oidc-adapter.contract.js';
import { webhookFeedContract } from './webhook-feed.contract.js';
import { outboxContract } from './outbox.contract.js';
import { readModelContract } from './read-model.contract.js';
import { sessionRepositoryContract } from './session-repository.contract.js';
import { type StorageFactory, eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';

describeWithPostgres('PostgreSQL adapters', (url) => {
  let databases = 0;

  /** Runs one statement on the cluster's `postgres` database (CREATE DATABASE cannot run in a transaction). */
  const admin = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  /**
   * A storage opened as the service opens it (its own pool) on a fresh database of the run's throw-away cluster, as
   * LMDB's is a fresh directory (the sweeps and the feeds read every record); closed and dropped on dispose.
   */
  const postgres: StorageFactory = async () => {
    const name = `contract_${process.pid}_${++databases}`;
    await admin(`CREATE DATABASE ${name}`);
    const storage = await openStorage({ storage: { postgres: { url: url().replace(/\/postgres$/, `/${name}`) } } }, TEST_PERSONAL_DATA_KEYS, TEST_SCHEMA);
    return {
      ...storage,
      health: storage.storeHealth,
      closeStore: () => storage.close(),
      dispose: async () => {
        await storage.close();
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  };

  userRepositoryContract('postgres', postgres);
  eventLogContract('postgres', postgres);
  storeHealthContract('postgres', postgres);
  readModelContract('postgres', postgres);
  sessionRepositoryContract('postgres', postgres);
  outboxContract('postgres', postgres);
  storeContract('postgres', postgres);
  secondFactorContract('postgres', postgres);
  passkeyContract('postgres', postgres);
  identityContract('postgres', postgres);
  oauthFlowContract('postgres', postgres);
  oidcAdapterContract('postgres', postgres);
  webhookFeedContract('postgres', postgres);

  describe('PostgreSQL only', () => {
    it('migrates its schema once when several instances open a fresh database at once, and records the version', async () => {
      const name = `migrate_${process.pid}_${++databases}`;
      await admin(`CREATE DATABASE ${name}`);
      const target = url().replace(/\/postgres$/, `/${name}`);
      const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open({ url: target })));
      await Promise.all(stores.map((store) => store.close()));
      expect(stores.map((store) => store.schema.before).sort()).to.deep.equal([0, MIGRATIONS.length, MIGRATIONS.length, MIGRATIONS.length]);
      expect(stores.map((store) => store.schema.after)).to.deep.equal(Array(4).fill(MIGRATIONS.length));
      const client = new pg.Client({ connectionString: target });
      await client.connect();
      try {
        const { rows } = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'store_%' ORDER BY tablename");
        expect(rows.map((row) => row.tablename)).to.deep.equal(['store_entries', 'store_health', 'store_rows', 'store_schema']);
        expect((await client.query('SELECT version FROM store_schema')).rows).to.deep.equal([{ version: MIGRATIONS.length }]);
        // A newer release migrated further (its migrations only add): this one opens it as it is, and says so.
        await client.query('UPDATE store_schema SET version = $1', [MIGRATIONS.length + 1]);
        const older = await PostgresStore.open({ url: target });
        await older.close();
        expect(older.schema).to.deep.equal({ before: MIGRATIONS.length + 1, after: MIGRATIONS.length + 1, known: MIGRATIONS.length });
        expect((await client.query('SELECT version FROM store_schema')).rows).to.deep.equal([{ version: MIGRATIONS.length + 1 }]);
      } finally {
        await client.end();
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });

    it('refuses to open, naming no URL, when the server does not answer', async () => {
      const error = await PostgresStore.open({ url: 'postgres://user:secret@127.0.0.1:1/none', timeoutMs: 1_000 }).then(() => null, (failure: unknown) => failure);
      expect(error).to.be.instanceOf(Error).with.property('name', 'PostgresUnreachable');
      expect((error as Error).message).not.to.include('secret');
    });
  });
});
