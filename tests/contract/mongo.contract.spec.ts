import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { EmailAlreadyRegistered } from '../../src/domain/domain-error.js';
import { StoreEventLog } from '../../src/infrastructure/storage/store-event-log.js';
import { MongoStoreHealth } from '../../src/infrastructure/mongo/mongo-store-health.js';
import { MongoStore } from '../../src/infrastructure/mongo/mongo-store.js';
import { MongoTables } from '../../src/infrastructure/mongo/mongo-tables.js';
import { portsOver } from '../../src/infrastructure/storage/storage.js';
import { TEST_PERSONAL_DATA_KEYS } from '../support/storages.js';
import { TEST_SCHEMA } from '../support/test-schema.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { aRequestMetadata } from '../support/builders.js';
import { describeWithMongo, uniqueDbName } from '../support/mongo-target.js';
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
import { type StorageFactory, aUser, eventLogContract, storeHealthContract, userRepositoryContract } from './storage.contract.js';
import { rejection } from '../support/rejection.js';

const recorded = (user: ReturnType<typeof aUser>, prefix: string): RecordedEvent[] =>
  user.pullEvents().map((event, i) => ({ ...event, eventId: `${prefix}-${user.id}-${i}`, metadata: aRequestMetadata() }));


describeWithMongo('MongoDB adapters', (target) => {
  let store: MongoStore | undefined;
  const dbName = uniqueDbName('contract');

  const openStore = async (): Promise<MongoStore> => (store ??= await MongoStore.open({ uri: target().uri, dbName }));

  after(async () => {
    if (!store) return;
    await store.db.dropDatabase();
    await store.close();
  });

  const mongo: StorageFactory = async () => {
    const opened = await openStore();
    return {
      ...portsOver(new MongoTables(opened), () => Promise.resolve(), TEST_PERSONAL_DATA_KEYS, TEST_SCHEMA),
      health: new MongoStoreHealth(opened),
      closeStore: () => Promise.reject(new Error('the shared store stays open: see ownStoreStorage')),
      dispose: () => Promise.resolve(),
    };
  };

  /** A storage over a client of its own, so that the health contract may close it without closing the shared one. */
  const ownStoreStorage: StorageFactory = async () => {
    const own = await MongoStore.open({ uri: target().uri, dbName });
    const ports = portsOver(new MongoTables(own), () => own.close(), TEST_PERSONAL_DATA_KEYS, TEST_SCHEMA);
    return { ...ports, health: new MongoStoreHealth(own), closeStore: ports.close, dispose: ports.close };
  };

  userRepositoryContract('mongodb', mongo);
  eventLogContract('mongodb', mongo);
  storeHealthContract('mongodb', ownStoreStorage);
  readModelContract('mongodb', mongo);
  sessionRepositoryContract('mongodb', mongo);
  outboxContract('mongodb', mongo);
  storeContract('mongodb', mongo);
  secondFactorContract('mongodb', mongo);
  passkeyContract('mongodb', mongo);
  identityContract('mongodb', mongo);
  oauthFlowContract('mongodb', mongo);
  oidcAdapterContract('mongodb', mongo);
  webhookFeedContract('mongodb', mongo);

  describe('MongoDB only', () => {
    it('creates the indexes of each table on first use, idempotently', async () => {
      const opened = await openStore();
      const tables = new MongoTables(opened);
      const { SESSIONS } = await import('../../src/infrastructure/storage/account-tables.js');
      const { EVENTS } = await import('../../src/infrastructure/storage/event-tables.js');
      await tables.count(SESSIONS, 'liveByCreation', ['none']);
      await tables.count(EVENTS, 'byAggregate', ['none']);
      await new MongoTables(opened).count(EVENTS, 'prunable', [0]);
      const sessionIndexes = await opened.db.collection('kv.sessions').listIndexes().toArray();
      expect(sessionIndexes.map((index) => index['name'])).to.include.members(['ix_liveByCreation', 'ix_liveByUse', 'expires_ttl']);
      const eventIndexes = await opened.db.collection('kv.events').listIndexes().toArray();
      expect(eventIndexes.map((index) => index['name'])).to.include.members(['ix_byAggregate', 'ix_prunable']);
    });

    it('is atomic: when the event write fails inside the transaction, the user is not stored either', async () => {
      const opened = await openStore();
      const user = aUser();
      await new StoreEventLog(new MongoTables(opened)).append([]);
      await opened.db.createCollection('kv.events').catch(() => undefined);
      await opened.db.command({ collMod: 'kv.events', validator: { 'r.aggregateId': { $ne: user.id } }, validationLevel: 'strict', validationAction: 'error' });
      try {
        const error = await rejection(new StoreUserRepository(new MongoTables(opened)).add(user, recorded(user, 'atomic')));
        expect(error).to.be.instanceOf(Error).and.not.be.instanceOf(EmailAlreadyRegistered);
        expect((error as Error).name).to.equal('MongoStoreFailure');
        expect((error as Error).message).not.to.include('Document failed validation').and.not.include(user.id);
      } finally {
        await opened.db.command({ collMod: 'kv.events', validator: {}, validationLevel: 'off' });
      }
      expect(await opened.db.collection('kv.users').findOne({ _id: user.id } as object)).to.equal(null);
      expect(await opened.db.collection('kv.claims').findOne({ _id: `email:${user.email.value}` } as object)).to.equal(null);
    });

    it('keeps only the argon2 hash as a secret, in the user record, and nowhere in its events or its view', async () => {
      const opened = await openStore();
      const user = aUser();
      await new StoreUserRepository(new MongoTables(opened)).add(user, recorded(user, 'secret'));
      const stored = await opened.db.collection<{ r: Record<string, unknown> }>('kv.users').findOne({ _id: user.id } as object);
      expect(Object.keys(stored?.r ?? {}).sort()).to.deep.equal(['createdAt', 'email', 'emailVerified', 'id', 'lastname', 'name', 'passwordHash', 'sessionEpoch']);
      expect(stored?.r['passwordHash']).to.match(/^\$argon2id\$/);
      const view = await opened.db.collection('kv.account-views').findOne({ _id: user.id } as object);
      expect(JSON.stringify(view)).not.to.include('argon2');
      const events = await new StoreEventLog(new MongoTables(opened)).findByAggregate(user.id, { limit: 10, cursor: null });
      expect(events.events).to.have.length(1);
      expect(JSON.stringify(events)).not.to.include('argon2');
    });

    it('pages events of the same instant in append order, without loss or repeat', async () => {
      const opened = await openStore();
      const log = new StoreEventLog(new MongoTables(opened));
      const aggregateId = `same-instant-${Date.now()}`;
      const at = new Date('2026-03-01T12:00:00.000Z');
      const events: RecordedEvent[] = [1, 2, 3].map((n) => ({
        type: 'UserSignedIn',
        aggregateId,
        occurredAt: at,
        payload: { email: `${aggregateId}@example.com` },
        eventId: `${aggregateId}-${n}`,
        metadata: aRequestMetadata(),
      }));
      await log.append(events);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<StoreEventLog['findByAggregate']>> = await log.findByAggregate(aggregateId, { limit: 1, cursor });
        seen.push(...page.events.map((event) => event.eventId));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).to.deep.equal([`${aggregateId}-3`, `${aggregateId}-2`, `${aggregateId}-1`]);
    });
  });
});
