import { rmSync } from 'node:fs';
import { expect } from 'chai';
import { StoreEventLog } from '../../src/infrastructure/storage/store-event-log.js';
import { LmdbStore } from '../../src/infrastructure/lmdb/lmdb-store.js';
import { LmdbTables } from '../../src/infrastructure/lmdb/lmdb-tables.js';
import { readable } from '../support/sealed-store.js';
import { StoreUserRepository } from '../../src/infrastructure/storage/store-user.repository.js';
import { parametersOf } from '../../src/infrastructure/security/argon2-password-hasher.js';
import { aSignUpBody } from '../support/builders.js';
import { postJson } from '../support/http-client.js';
import { startTestService, tempDir } from '../support/test-service.js';

async function readStore(dataDir: string) {
  const store = LmdbStore.open(dataDir);
  try {
    const tables = readable(new LmdbTables(store), dataDir);
    const user = await new StoreUserRepository(tables).findByEmail('ada@example.com');
    const page = user ? await new StoreEventLog(tables).findByAggregate(user.id, { limit: 20, cursor: null }) : { events: [] };
    return { hash: user?.passwordHash ?? '', types: page.events.map((event) => event.type).reverse() };
  } finally {
    await store.close();
  }
}

describe('HTTP: rehash on sign-in when the argon2 parameters changed', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = tempDir('rehash')));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('replaces a hash made under other parameters, records PasswordRehashed once, and keeps the password working', async () => {
    const before = await startTestService({ DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '1024' });
    expect((await postJson(before.url, '/auth/sign-up', aSignUpBody())).status).to.equal(201);
    await before.close();
    const original = await readStore(dataDir);
    expect(parametersOf(original.hash)).to.deep.include({ memoryKiB: 1024 });

    const after = await startTestService({ DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '2048' });
    const signIn = () => postJson(after.url, '/auth/sign-in', { email: 'ada@example.com', password: 'analytical engine 1843' });
    expect((await signIn()).status).to.equal(201);
    expect((await signIn()).status).to.equal(201);
    await after.close();

    const rehashed = await readStore(dataDir);
    expect(parametersOf(rehashed.hash)).to.deep.include({ memoryKiB: 2048 });
    expect(rehashed.hash).not.to.equal(original.hash);
    expect(rehashed.types).to.deep.equal(['UserRegistered', 'EmailVerificationRequested', 'SessionStarted', 'PasswordRehashed', 'UserSignedIn', 'SessionStarted', 'UserSignedIn', 'SessionStarted']);
  });

  it('does not rehash on a wrong password', async () => {
    const service = await startTestService({ DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '1024' });
    await postJson(service.url, '/auth/sign-up', aSignUpBody());
    await service.close();
    const original = await readStore(dataDir);

    const other = await startTestService({ DATA_DIR: dataDir, ARGON2_MEMORY_KIB: '2048' });
    expect((await postJson(other.url, '/auth/sign-in', { email: 'ada@example.com', password: 'not the password' })).status).to.equal(401);
    await other.close();
    expect((await readStore(dataDir)).hash).to.equal(original.hash);
  });
});
