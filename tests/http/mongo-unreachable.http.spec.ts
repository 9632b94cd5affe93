import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect } from 'chai';
import { ServiceUnavailable } from '../../src/application/errors.js';
import { StoreEventLog } from '../../src/infrastructure/storage/store-event-log.js';
import { MongoStoreHealth } from '../../src/infrastructure/mongo/mongo-store-health.js';
import { MongoStore, MongoUnreachable } from '../../src/infrastructure/mongo/mongo-store.js';
import { MongoTables } from '../../src/infrastructure/mongo/mongo-tables.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { aUser } from '../contract/storage.contract.js';
import { aRequestMetadata } from '../support/builders.js';
import { startTestService, tempDir } from '../support/test-service.js';
import { rejection } from '../support/rejection.js';

/** A local TCP port that nothing listens on: taken from the OS, then released. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
};


describe('MongoDB adapters while MongoDB is unreachable (real driver, nothing listening)', () => {
  let uri: string;
  let store: MongoStore;
  before(async () => {
    uri = `mongodb://svc:s3cret-pw@127.0.0.1:${await closedPort()}/?directConnection=true`;
    store = MongoStore.create({ uri, dbName: 'accounts', serverSelectionTimeoutMS: 300 });
  });
  after(async () => store.close());

  it('answers reads and writes of both ports with ServiceUnavailable, not a driver error', async () => {
    const users = new StoreUserRepository(new MongoTables(store));
    const events = new StoreEventLog(new MongoTables(store));
    const user = aUser();
    const attempts = [
      users.findByEmail('ada@example.com'),
      users.findById('u1'),
      users.add(user, []),
      users.save(user, []),
      events.findByAggregate('u1', { limit: 5, cursor: null }),
      events.append([{ type: 'SignInFailed', aggregateId: null, occurredAt: new Date(), payload: { email: 'a@b.co', reason: 'unknown_email' }, eventId: 'e1', metadata: aRequestMetadata() }]),
    ];
    for (const attempt of attempts) {
      const error = await rejection(attempt);
      expect(error).to.be.instanceOf(ServiceUnavailable);
      expect(error).to.deep.include({ reason: 'store_unavailable', retryAfterSeconds: 5 });
    }
  });

  it('reports itself unhealthy with ServiceUnavailable', async () => {
    expect(await rejection(new MongoStoreHealth(store).check())).to.be.instanceOf(ServiceUnavailable);
  });

  it('refuses to start, saying what to check, without printing the URI or its password', async () => {
    const error = await rejection(MongoStore.open({ uri, dbName: 'accounts', serverSelectionTimeoutMS: 300 }));
    expect(error).to.be.instanceOf(MongoUnreachable);
    expect((error as Error).message).to.include('MONGODB_URI').and.include('--replSet rs0').and.not.include('s3cret-pw');
  });

  it('is what the service composes when MONGODB_URI is set: it refuses to start rather than fall back to LMDB', async function () {
    this.timeout(30_000);
    const dataDir = tempDir('mongo-unreachable');
    try {
      expect(await rejection(startTestService({ MONGODB_URI: uri, DATA_DIR: dataDir }))).to.be.instanceOf(MongoUnreachable);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
