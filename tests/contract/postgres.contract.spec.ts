import { expect } from 'chai';
import pg from 'pg';
import { openStorage } from '../../src/infrastructure/postgres/postgres-storage.js';
import { PostgresStore } from '../../src/infrastructure/postgres/postgres-store.js';
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
    it('creates its schema idempotently when several instances open at once', async () => {
      const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open({ url: url() })));
      await Promise.all(stores.map((store) => store.close()));
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        const { rows } = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename LIKE 'store_%' ORDER BY tablename");
        expect(rows.map((row) => row.tablename)).to.deep.equal(['store_entries', 'store_health', 'store_rows']);
      } finally {
        await client.end();
      }
    });

    it('refuses to open, naming no URL, when the server does not answer', async () => {
      const error = await PostgresStore.open({ url: 'postgres://user:secret@127.0.0.1:1/none', timeoutMs: 1_000 }).then(() => null, (failure: unknown) => failure);
      expect(error).to.be.instanceOf(Error).with.property('name', 'PostgresUnreachable');
      expect((error as Error).message).not.to.include('secret');
    });
  });
});
