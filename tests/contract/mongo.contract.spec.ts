import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { EmailAlreadyRegistered } from '../../src/domain/domain-error.js';
import { MongoEventLog } from '../../src/infrastructure/mongo/mongo-event-log.js';
import { MongoOutbox } from '../../src/infrastructure/mongo/mongo-outbox.js';
import { MongoStoreHealth } from '../../src/infrastructure/mongo/mongo-store-health.js';
import { MongoStore } from '../../src/infrastructure/mongo/mongo-store.js';
import { MongoTables } from '../../src/infrastructure/mongo/mongo-tables.js';
import { portsOver } from '../../src/infrastructure/storage/storage.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { aRequestMetadata } from '../support/builders.js';
import { describeWithMongo, uniqueDbName } from '../support/mongo-target.js';
import { storeContract } from './store.contract.js';
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
      ...portsOver(new MongoTables(opened)),
      events: new MongoEventLog(opened),
      outbox: new MongoOutbox(opened),
      health: new MongoStoreHealth(opened),
      closeStore: () => Promise.reject(new Error('the shared store stays open: see ownStoreStorage')),
      dispose: () => Promise.resolve(),
    };
  };

  /** A storage over a client of its own, so that the health contract may close it without closing the shared one. */
  const ownStoreStorage: StorageFactory = async () => {
    const own = await MongoStore.open({ uri: target().uri, dbName });
    let closing: Promise<void> | undefined;
    const closeStore = () => (closing ??= own.close());
    return {
      ...portsOver(new MongoTables(own)),
      events: new MongoEventLog(own),
      outbox: new MongoOutbox(own),
      health: new MongoStoreHealth(own),
      closeStore,
      dispose: closeStore,
    };
  };

  userRepositoryContract('mongodb', mongo);
  eventLogContract('mongodb', mongo);
  storeHealthContract('mongodb', ownStoreStorage);
  readModelContract('mongodb', mongo);
  sessionRepositoryContract('mongodb', mongo);
  outboxContract('mongodb', mongo);
  storeContract('mongodb', mongo);

  describe('MongoDB only', () => {
    it('creates its indexes idempotently: a second start changes nothing', async () => {
      const opened = await openStore();
      await opened.start();
      const eventIndexes = await opened.events.listIndexes().toArray();
      expect(eventIndexes.find((index) => index['name'] === 'eventId_unique')).to.deep.include({ key: { eventId: 1 }, unique: true });
      expect(eventIndexes.map((index) => index['name'])).to.include.members(['aggregate_newest_first', 'email_type_newest_first']);
      await new StoreUserRepository(new MongoTables(opened)).findById('none');
      const { SESSIONS } = await import('../../src/infrastructure/storage/account-tables.js');
      await new MongoTables(opened).count(SESSIONS, 'liveByCreation', ['none']);
      const sessionIndexes = await opened.db.collection('kv.sessions').listIndexes().toArray();
      expect(sessionIndexes.map((index) => index['name'])).to.include.members(['ix_liveByCreation', 'ix_liveByUse', 'expires_ttl']);
      expect(sessionIndexes.find((index) => index['name'] === 'expires_ttl')).to.deep.include({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
    });

    it('is atomic: when the event write fails inside the transaction, the user is not stored either', async () => {
      const opened = await openStore();
      const user = aUser();
      await opened.db.command({ collMod: 'events', validator: { aggregateId: { $ne: user.id } }, validationLevel: 'strict', validationAction: 'error' });
      try {
        const error = await rejection(new StoreUserRepository(new MongoTables(opened)).add(user, recorded(user, 'atomic')));
        expect(error).to.be.instanceOf(Error).and.not.be.instanceOf(EmailAlreadyRegistered);
        expect((error as Error).name).to.equal('MongoStoreFailure');
        expect((error as Error).message).not.to.include('Document failed validation').and.not.include(user.id);
      } finally {
        await opened.db.command({ collMod: 'events', validator: {}, validationLevel: 'off' });
      }
      expect(await opened.db.collection('kv.users').findOne({ _id: user.id } as object)).to.equal(null);
      expect(await opened.db.collection('kv.claims').findOne({ _id: `email:${user.email.value}` } as object)).to.equal(null);
      expect(await opened.events.countDocuments({ aggregateId: user.id })).to.equal(0);
    });

    it('keeps only the argon2 hash as a secret, in the user document and nowhere in its events', async () => {
      const opened = await openStore();
      const user = aUser();
      await new StoreUserRepository(new MongoTables(opened)).add(user, recorded(user, 'secret'));
      const stored = await opened.db.collection<{ r: Record<string, unknown> }>('kv.users').findOne({ _id: user.id } as object);
      expect(Object.keys(stored?.r ?? {}).sort()).to.deep.equal(['createdAt', 'email', 'emailVerified', 'id', 'lastname', 'name', 'passwordHash', 'sessionEpoch']);
      expect(stored?.r['passwordHash']).to.match(/^\$argon2id\$/);
      const events = await opened.events.find({ aggregateId: user.id }).toArray();
      expect(events).to.have.length(1);
      expect(JSON.stringify(events)).not.to.include('argon2');
    });

    it('gives high-volume events an expiresAt EVENT_RETENTION_DAYS after they occurred, under a TTL index; account-defining events none', async () => {
      const opened = await openStore();
      const log = new MongoEventLog(opened);
      const id = `retention-${Date.now()}`;
      const occurredAt = new Date('2026-03-01T12:00:00.000Z');
      const base = { aggregateId: id, occurredAt, payload: { email: `${id}@example.com` }, metadata: aRequestMetadata() };
      await log.append([
        { ...base, type: 'UserSignedIn', eventId: `${id}-signed-in` },
        { ...base, type: 'UserRegistered', eventId: `${id}-registered` },
      ] as RecordedEvent[]);
      const signedIn = await opened.events.findOne({ eventId: `${id}-signed-in` });
      const registered = await opened.events.findOne({ eventId: `${id}-registered` });
      expect(signedIn?.expiresAt?.getTime()).to.equal(occurredAt.getTime() + 90 * 86_400_000);
      expect(registered).to.not.have.property('expiresAt');
      const ttl = (await opened.events.indexes()).find((index) => index.name === 'events-retention-ttl');
      expect(ttl?.expireAfterSeconds).to.equal(0);
    });

    it('pages events of the same instant in append order, without loss or repeat', async () => {
      const opened = await openStore();
      const log = new MongoEventLog(opened);
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
        const page = await log.findByAggregate(aggregateId, { limit: 1, cursor });
        seen.push(...page.events.map((event) => event.eventId));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).to.deep.equal([`${aggregateId}-3`, `${aggregateId}-2`, `${aggregateId}-1`]);
    });
  });
});
